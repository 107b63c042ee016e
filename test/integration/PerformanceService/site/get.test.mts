import { loadOutputSchema } from 'n8n-core';
import { NodeHelpers, type IDataObject, type INodeParameters, type INodeType } from 'n8n-workflow';
import { beforeAll, describe, expect, it } from 'vitest';

import { type JsonSchema } from '../../../support/harness/jsonSchema.mts';
import { loadPackageTypes } from '../../../support/harness/packageTypes.mts';
import { byId, fromList } from '../../../support/harness/runNode.mts';
import {
	chain,
	packageNode,
	runWorkflow,
	startNode,
} from '../../../support/harness/runWorkflow.mts';
import { callsTo, sandboxCredentials } from '../../../support/harness/sandbox.mts';
import { PACKAGE_NAME } from '../../../support/n8n/paths.mts';
import { expectOutputMatches, outputSchema } from '../../outputSchema.mts';
import { NODE_DIR, performanceSandbox, SIMPLE_SITE_KEYS } from '../performanceNode.mts';

/**
 * Site → Get returns the site with its audits and events by default (interface.md). Node
 * version 2 made Simplify off by default for Get; version 1 workflows keep Simplify on unless
 * they saved it off, since n8n saves only values that differ from the default.
 */

const { sandbox, run, serviceJson } = performanceSandbox();
const SIMPLE_GET_KEYS = [...SIMPLE_SITE_KEYS, 'eventCount', 'latestEvent'];

async function getSite(typeVersion: number, parameters: INodeParameters = {}) {
	const node = packageNode(
		'performanceService',
		{ resource: 'site', operation: 'get', siteId: byId('site_1'), ...parameters },
		{ name: 'Get site', credentials: ['performanceServiceApi'] },
	);
	node.typeVersion = typeVersion;
	const run = await runWorkflow(chain(startNode(), node), {
		credentials: sandboxCredentials(sandbox),
	});
	expect(run.nodeError('Get site')).toBeUndefined();
	return run.output('Get site').map((item) => item.json);
}

describe('Site → Get, node version 2 (new nodes)', () => {
	it('returns the site with its audits and events by default', async () => {
		const site = await serviceJson('/sites/site_1');
		const output = await getSite(2);

		expect(output).toEqual([site]);
		expect((site.audits as IDataObject[]).length).toBe(4);
		expect((site.events as IDataObject[]).length).toBe(5);
		expect(callsTo(sandbox, 'performance')).toEqual([
			{
				method: 'GET',
				path: '/sites/site_1',
				query: {},
				auth: `Bearer ${sandbox.tokens.readWrite}`,
			},
		]);
	});

	it('simplifies when Simplify is switched on', async () => {
		const [simplified] = await getSite(2, { simplify: true });
		expect(Object.keys(simplified)).toEqual(SIMPLE_GET_KEYS);
		expect(simplified).toMatchObject({
			id: 'site_1',
			auditCount: 4,
			eventCount: 5,
			latestScores: { mobile: 94, desktop: 98 },
		});
	});

	it('matches the version 2 output schema', async () => {
		const schema = outputSchema(NODE_DIR, 'site', 'get', 2);
		const [site] = await getSite(2);

		expect(Object.keys(schema.properties ?? {})).toEqual([
			'id',
			'name',
			'hostname',
			'status',
			'audits',
			'events',
		]);
		expectOutputMatches(schema, [site]);
	});
});

describe('output schemas of version 2', () => {
	const schemaOf = (version: number, resource: string, operation: string) =>
		loadOutputSchema({
			nodeDir: NODE_DIR,
			version,
			resource,
			operation,
		});

	it.each([
		['site', 'getAll'],
		['site', 'reoptimize'],
		['audit', 'getAll'],
		['system', 'getHealth'],
	])('%s.%s: the same as version 1 (only Get changed)', (resource, operation) => {
		expect(schemaOf(2, resource, operation)).toBeDefined();
		expect(schemaOf(2, resource, operation)).toEqual(schemaOf(1, resource, operation));
	});

	it('site.get: version 1 keeps the simplified schema', () => {
		expect(Object.keys((schemaOf(1, 'site', 'get') as JsonSchema).properties ?? {})).toContain(
			'latestScores',
		);
	});
});

describe('Site → Get, node version 1 (saved workflows)', () => {
	it('keeps Simplify on when the workflow saved no value', async () => {
		const [simplified] = await getSite(1);
		expect(Object.keys(simplified)).toEqual(SIMPLE_GET_KEYS);
	});

	it('keeps Simplify off when the workflow saved it off', async () => {
		expect(await getSite(1, { simplify: false })).toEqual([await serviceJson('/sites/site_1')]);
	});
});

describe('what n8n saves and fills in', () => {
	let nodeType: INodeType;

	beforeAll(async () => {
		nodeType = (await loadPackageTypes()).nodes.get(
			`${PACKAGE_NAME}.performanceService`,
		) as INodeType;
	});

	it('new nodes are version 2; version 1 stays loadable', () => {
		expect(nodeType.description.version).toEqual([1, 2]);
		expect(nodeType.description.defaultVersion).toBe(2);
	});

	/** The parameters n8n completes with defaults for a node of `typeVersion` (as on load and on run). */
	function filledIn(typeVersion: number, parameters: INodeParameters): INodeParameters | null {
		const node = packageNode('performanceService', parameters);
		node.typeVersion = typeVersion;
		return NodeHelpers.getNodeParameters(
			nodeType.description.properties,
			parameters,
			true,
			false,
			node,
			nodeType.description,
		);
	}

	it('fills in Simplify off for Get from version 2, on for version 1, and on for Get Many in both', () => {
		const get = { resource: 'site', operation: 'get', siteId: byId('site_1') };
		const getMany = { resource: 'site', operation: 'getAll' };
		expect(filledIn(2, get)?.simplify).toBe(false);
		expect(filledIn(1, get)?.simplify).toBe(true);
		expect(filledIn(2, getMany)?.simplify).toBe(true);
		expect(filledIn(1, getMany)?.simplify).toBe(true);
	});
});

describe('site: Get', () => {
	it('returns the site with its audits and events when Simplify is off', async () => {
		const expected = await serviceJson('/sites/site_2');
		const result = await run({
			resource: 'site',
			operation: 'get',
			siteId: byId('site_2'),
			simplify: false,
		});

		expect(result.json).toEqual([expected]);
		expect((expected.events as IDataObject[]).map((event) => event.type)).toEqual([
			'audit.completed',
			'audit.completed',
			'audit.completed',
			'audit.completed',
			'site.added',
		]);
		expect(callsTo(sandbox, 'performance')).toEqual([
			{
				method: 'GET',
				path: '/sites/site_2',
				query: {},
				auth: `Bearer ${sandbox.tokens.readWrite}`,
			},
		]);
	});

	it('summarizes audits and events by default', async () => {
		const { events } = await serviceJson('/sites/site_1');
		const newest = (events as IDataObject[])[0];
		const result = await run({ resource: 'site', operation: 'get', siteId: byId('site_1') });
		expect(result.json).toHaveLength(1);
		expect(Object.keys(result.json[0])).toEqual([...SIMPLE_SITE_KEYS, 'eventCount', 'latestEvent']);
		expect(result.json[0]).toMatchObject({
			id: 'site_1',
			auditCount: 4,
			eventCount: 5,
		});
		expect(result.json[0].latestEvent).toEqual({
			id: newest.id,
			type: 'audit.completed',
			message: 'Audit aud_4 (desktop) completed with score 98',
			createdAt: newest.createdAt,
		});
	});

	it('accepts a site picked from the list', async () => {
		const siteId = fromList('site_3', 'Acme Docs (docs.example.com)');
		const result = await run({ resource: 'site', operation: 'get', siteId });
		expect(result.json[0]).toMatchObject({ id: 'site_3', name: 'Acme Docs' });
		expect(callsTo(sandbox, 'performance').map((call) => call.path)).toEqual(['/sites/site_3']);
	});

	it('reads one site per input item, each paired with its item', async () => {
		const result = await run(
			{ resource: 'site', operation: 'get', siteId: byId('={{ $json.site }}') },
			{ items: [{ site: 'site_3' }, { site: 'site_1' }] },
		);
		expect(result.json.map((site) => site.id)).toEqual(['site_3', 'site_1']);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(callsTo(sandbox, 'performance').map((call) => call.path)).toEqual([
			'/sites/site_3',
			'/sites/site_1',
		]);
	});
});
