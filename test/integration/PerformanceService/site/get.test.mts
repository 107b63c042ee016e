import { NodeHelpers, type IDataObject, type INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { byId, fromList } from '../../../support/harness/runNode.mts';
import { packageNode } from '../../../support/harness/runWorkflow.mts';
import { callsTo } from '../../../support/harness/sandbox.mts';
import { nodeType } from '../../nodeDescription.mts';
import { performanceSandbox, SIMPLE_SITE_KEYS } from '../performanceNode.mts';

/** Site → Get returns the site with its audits and events by default (interface.md). */

const { sandbox, run, serviceJson } = performanceSandbox();

describe('site: Get', () => {
	it('returns the site with its audits and events by default', async () => {
		const site = await serviceJson('/sites/site_1');
		const result = await run({ resource: 'site', operation: 'get', siteId: byId('site_1') });

		expect(result.json).toEqual([site]);
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

	it('returns the same when Simplify is saved off', async () => {
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
	});

	it('summarizes audits and events when Simplify is on', async () => {
		const { events } = await serviceJson('/sites/site_1');
		const newest = (events as IDataObject[])[0];
		const result = await run({
			resource: 'site',
			operation: 'get',
			siteId: byId('site_1'),
			simplify: true,
		});
		expect(result.json).toHaveLength(1);
		expect(Object.keys(result.json[0])).toEqual([...SIMPLE_SITE_KEYS, 'eventCount', 'latestEvent']);
		expect(result.json[0]).toMatchObject({
			id: 'site_1',
			auditCount: 4,
			eventCount: 5,
			latestScores: { mobile: 94, desktop: 98 },
		});
		expect(result.json[0].latestEvent).toEqual({
			id: newest.id,
			type: 'audit.completed',
			message: 'Audit aud_4 (desktop) completed with score 98',
			createdAt: newest.createdAt,
		});
	});

	it('is filled in with Simplify off for Get and on for Get Many, as n8n saves and loads a node', async () => {
		const { description } = await nodeType('performanceService');
		const filledIn = (parameters: INodeParameters) =>
			NodeHelpers.getNodeParameters(
				description.properties,
				parameters,
				true,
				false,
				packageNode('performanceService', parameters),
				description,
			);
		expect(filledIn({ resource: 'site', operation: 'get', siteId: byId('site_1') })?.simplify).toBe(
			false,
		);
		expect(filledIn({ resource: 'site', operation: 'getAll' })?.simplify).toBe(true);
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
