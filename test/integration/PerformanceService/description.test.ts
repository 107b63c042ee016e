import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { loadOutputSchema } from 'n8n-core';
import type { IDataObject, INodeParameters, INodeProperties, INodeType } from 'n8n-workflow';
import { beforeAll, describe, expect, it } from 'vitest';

import { validateJson, type JsonSchema } from '../../support/harness/jsonSchema.ts';
import { runListSearch } from '../../support/harness/listSearch.ts';
import { loadPackageTypes } from '../../support/harness/packageTypes.ts';
import {
	byId,
	fromList,
	reasonOf,
	runNode,
	type RunNodeOptions,
} from '../../support/harness/runNode.ts';
import { callsTo, serviceAnswer, withSandbox } from '../../support/harness/sandbox.ts';
import { PACKAGE_NAME, PACKAGE_ROOT } from '../../support/n8n/paths.ts';

const NODE_DIR = path.join(PACKAGE_ROOT, 'nodes/PerformanceService');
const SIMPLE_SITE_KEYS = [
	'id',
	'name',
	'hostname',
	'status',
	'auditCount',
	'latestAudit',
	'latestScores',
];

const sandbox = withSandbox();
const run = (parameters: INodeParameters, options: RunNodeOptions = {}) =>
	runNode('performanceService', parameters, { sandbox, ...options });

const serviceJson = async (path: string) =>
	(await serviceAnswer(sandbox, 'performance', path)) as IDataObject;

describe('site: Get Many', () => {
	it('returns one raw item per site with Return All and Simplify off', async () => {
		const { sites } = (await serviceJson('/sites')) as { sites: IDataObject[] };
		const result = await run({
			resource: 'site',
			operation: 'getAll',
			returnAll: true,
			simplify: false,
		});

		expect(result.error).toBeUndefined();
		expect(result.json).toEqual(sites);
		expect(result.json).toHaveLength(4);
		expect(result.items.map((item) => item.pairedItem)).toEqual(sites.map(() => ({ item: 0 })));
		expect(callsTo(sandbox, 'performance')).toEqual([
			{ method: 'GET', path: '/sites', query: {}, auth: `Bearer ${sandbox.tokens.readWrite}` },
		]);
	});

	it('applies the limit client-side and simplifies by default', async () => {
		const { audits } = await serviceJson('/sites/site_1');
		const newest = (audits as IDataObject[])[0];
		const result = await run({ resource: 'site', operation: 'getAll', limit: 2 });

		expect(result.json).toHaveLength(2);
		expect(result.json.map((site) => site.id)).toEqual(['site_1', 'site_2']);
		for (const site of result.json) expect(Object.keys(site)).toEqual(SIMPLE_SITE_KEYS);
		expect(result.json[0]).toMatchObject({
			id: 'site_1',
			name: 'Acme Shop',
			hostname: 'shop.example.com',
			status: 'HEALTHY',
			auditCount: 4,
			latestScores: { mobile: 94, desktop: 98 },
		});
		expect(result.json[0].latestAudit).toEqual({
			id: 'aud_4',
			strategy: 'desktop',
			score: 98,
			createdAt: newest.createdAt,
		});
		expect(callsTo(sandbox, 'performance')).toEqual([
			{ method: 'GET', path: '/sites', query: {}, auth: `Bearer ${sandbox.tokens.readWrite}` },
		]);
	});

	it('simplifies a site without audits to a zero count and no latest audit', async () => {
		const result = await run({ resource: 'site', operation: 'getAll', returnAll: true });
		expect(result.json.find((site) => site.id === 'site_4')).toEqual({
			id: 'site_4',
			name: 'Acme Microsite',
			hostname: 'micro.example.com',
			status: 'PENDING',
			auditCount: 0,
			latestAudit: null,
			latestScores: {},
		});
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

describe('site: Reoptimize', () => {
	it('posts without a body and returns ok, queued and the site ID', async () => {
		const result = await run({ resource: 'site', operation: 'reoptimize', siteId: byId('site_1') });

		expect(result.json).toEqual([{ ok: true, queued: 4, siteId: 'site_1' }]);
		expect(callsTo(sandbox, 'performance')).toEqual([
			{
				method: 'POST',
				path: '/sites/site_1/reoptimize',
				query: {},
				auth: `Bearer ${sandbox.tokens.readWrite}`,
			},
		]);
		expect(sandbox.requests[0].body).toBe('');
	});
});

describe('audit: Get Many', () => {
	it('sends the limit as the query parameter and returns one item per audit', async () => {
		const { audits } = (await serviceJson('/audits-list?limit=5')) as { audits: IDataObject[] };
		const result = await run({ resource: 'audit', operation: 'getAll', limit: 5 });

		expect(result.json).toEqual(audits);
		expect(result.json).toHaveLength(5);
		expect(callsTo(sandbox, 'performance')).toEqual([
			{
				method: 'GET',
				path: '/audits-list',
				query: { limit: '5' },
				auth: `Bearer ${sandbox.tokens.readWrite}`,
			},
		]);
	});

	it("defaults to n8n's usual limit of 50 audits", async () => {
		const result = await run({ resource: 'audit', operation: 'getAll' });
		expect(callsTo(sandbox, 'performance')[0].query).toEqual({ limit: '50' });
		expect(result.json).toHaveLength(12);
	});
});

describe('system: Get Health', () => {
	it('returns the health object', async () => {
		const before = Date.now();
		const result = await run(
			{ resource: 'system', operation: 'getHealth' },
			{ credentials: { apiToken: sandbox.tokens.readOnly } },
		);
		const time = String(result.json[0]?.time);
		expect(result.json).toEqual([
			{ status: 'ok', version: '1.4.2', queue: { pending: 0, running: 0 }, time },
		]);
		// The service's clock at the time of the request.
		expect(new Date(time).toISOString()).toBe(time);
		expect(Date.parse(time)).toBeGreaterThanOrEqual(before);
		expect(Date.parse(time)).toBeLessThanOrEqual(Date.now());
		expect(callsTo(sandbox, 'performance')).toEqual([
			{ method: 'GET', path: '/system', query: {}, auth: `Bearer ${sandbox.tokens.readOnly}` },
		]);
	});
});

describe('a trailing slash on the base URL', () => {
	const operations = [
		{ resource: 'site', operation: 'getAll', path: '/sites' },
		{ resource: 'site', operation: 'get', siteId: byId('site_1'), path: '/sites/site_1' },
		{
			resource: 'site',
			operation: 'reoptimize',
			siteId: byId('site_2'),
			path: '/sites/site_2/reoptimize',
		},
		{ resource: 'audit', operation: 'getAll', path: '/audits-list' },
		{ resource: 'system', operation: 'getHealth', path: '/system' },
	];

	for (const suffix of ['/', '//']) {
		it(`does not double the slash in any request path (base URL ending in "${suffix}")`, async () => {
			for (const { path: expectedPath, ...parameters } of operations) {
				sandbox.requests.length = 0;
				const result = await run(parameters, {
					credentials: { baseUrl: `${sandbox.performanceUrl}${suffix}` },
				});
				expect(result.error).toBeUndefined();
				expect(callsTo(sandbox, 'performance').map((call) => call.path)).toEqual([expectedPath]);
			}
		});
	}
});

describe('the site list search', () => {
	const search = (
		filter?: string,
		baseUrl = sandbox.performanceUrl,
		token = sandbox.tokens.readOnly,
	) =>
		runListSearch({
			nodeType: 'performanceService',
			method: 'searchSites',
			credentials: { performanceServiceApi: { baseUrl, apiToken: token } },
			parameters: { resource: 'site', operation: 'get' },
			filter,
		});

	it('lists every site by name and hostname, sorted, with the ID as value', async () => {
		expect(await search()).toEqual({
			results: [
				{ name: 'Acme Blog (blog.example.com)', value: 'site_2' },
				{ name: 'Acme Docs (docs.example.com)', value: 'site_3' },
				{ name: 'Acme Microsite (micro.example.com)', value: 'site_4' },
				{ name: 'Acme Shop (shop.example.com)', value: 'site_1' },
			],
		});
		expect(callsTo(sandbox, 'performance')).toEqual([
			{ method: 'GET', path: '/sites', query: {}, auth: `Bearer ${sandbox.tokens.readOnly}` },
		]);
	});

	it('filters on the name or the hostname, ignoring case', async () => {
		expect((await search('SHOP')).results.map((result) => result.value)).toEqual(['site_1']);
		expect((await search('docs.example')).results.map((result) => result.value)).toEqual([
			'site_3',
		]);
		expect((await search('  micro ')).results.map((result) => result.value)).toEqual(['site_4']);
		expect((await search('no such site')).results).toEqual([]);
	});

	it('works with a trailing slash on the base URL', async () => {
		expect((await search('blog', `${sandbox.performanceUrl}/`)).results).toHaveLength(1);
		expect(callsTo(sandbox, 'performance').map((call) => call.path)).toEqual(['/sites']);
	});

	it('explains a rejected token', async () => {
		const error: unknown = await search('', sandbox.performanceUrl, 'perf_wrong').catch(
			(caught: unknown) => caught,
		);
		expect(error).toBeInstanceOf(Error);
		expect(reasonOf(error)).toBe('auth_invalid');
	});
});

describe('output schemas', () => {
	const cases = [
		{ resource: 'site', operation: 'getAll', parameters: { returnAll: true } },
		{ resource: 'site', operation: 'get', parameters: { siteId: byId('site_4') } },
		{ resource: 'site', operation: 'get', parameters: { siteId: byId('site_1') } },
		{ resource: 'site', operation: 'reoptimize', parameters: { siteId: byId('site_1') } },
		{ resource: 'audit', operation: 'getAll', parameters: { limit: 100 } },
		{ resource: 'system', operation: 'getHealth', parameters: {} },
	];

	for (const { resource, operation, parameters } of cases) {
		it(`${resource}.${operation}: n8n finds the schema and the default output matches it`, async () => {
			const schema = loadOutputSchema({ nodeDir: NODE_DIR, version: 1, resource, operation }) as
				| JsonSchema
				| undefined;
			expect(schema).toBeDefined();
			expect(Object.keys(schema?.properties ?? {}).length).toBeGreaterThan(0);

			const result = await run({ resource, operation, ...parameters });
			expect(result.json.length).toBeGreaterThan(0);
			for (const json of result.json) expect(validateJson(schema as JsonSchema, json)).toEqual([]);
			for (const json of result.json) {
				expect(Object.keys(json).filter((key) => !(key in (schema?.properties ?? {})))).toEqual([]);
			}
		});
	}
});

describe('node description', () => {
	let node: INodeType;
	const property = (name: string, operation?: string): INodeProperties | undefined =>
		node.description.properties.find(
			(candidate) =>
				candidate.name === name &&
				(operation === undefined || candidate.displayOptions?.show?.operation?.includes(operation)),
		);

	beforeAll(async () => {
		const types = await loadPackageTypes();
		node = types.nodes.get(`${PACKAGE_NAME}.performanceService`) as INodeType;
	});

	it('offers exactly the published resources and operations', () => {
		const operations = node.description.properties
			.filter((candidate) => candidate.name === 'operation')
			.flatMap((candidate) =>
				(candidate.options as Array<{ value: string }>).map(
					(option) => `${candidate.displayOptions?.show?.resource?.[0]}.${option.value}`,
				),
			);
		expect(operations.sort()).toEqual([
			'audit.getAll',
			'site.get',
			'site.getAll',
			'site.reoptimize',
			'system.getHealth',
		]);
	});

	it('is usable as a tool, with a subtitle, light and dark icons and a codex file', () => {
		expect(node.description.usableAsTool).toBe(true);
		expect(node.description.subtitle).toBe(
			'={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		);
		const icon = node.description.icon as { light: string; dark: string };
		for (const file of [icon.light, icon.dark])
			expect(existsSync(path.join(NODE_DIR, file.replace(/^file:/, '')))).toBe(true);

		const codex = JSON.parse(
			readFileSync(path.join(NODE_DIR, 'PerformanceService.node.json'), 'utf8'),
		) as {
			node: string;
			categories: string[];
			resources: {
				primaryDocumentation: Array<{ url: string }>;
				credentialDocumentation: Array<{ url: string }>;
			};
		};
		expect(codex.node).toBe(`${PACKAGE_NAME}.performanceService`);
		expect(codex.categories).toEqual(expect.arrayContaining(['Analytics', 'Development']));
		expect(codex.resources.primaryDocumentation[0].url).toMatch(/#performance-service$/);
		expect(codex.resources.credentialDocumentation[0].url).toMatch(
			/#performance-service-api-credential$/,
		);
	});

	it('describes every operation for tools', () => {
		const options = node.description.properties
			.filter((p) => p.name === 'operation')
			.flatMap(
				(candidate) => candidate.options as Array<{ action?: string; description?: string }>,
			);
		expect(options.map((option) => option.action).sort()).toEqual([
			'Get many audits',
			'Get many sites',
			'Get site',
			'Get system health',
			'Reoptimize site',
		]);
		for (const option of options) expect(option.description?.length).toBeGreaterThan(20);
	});

	it('makes the site a resource locator with a searchable list and an ID mode', () => {
		for (const operation of ['get', 'reoptimize']) {
			const siteId = property('siteId', operation);
			expect(siteId?.type).toBe('resourceLocator');
			expect(siteId?.modes?.map((mode) => mode.name)).toEqual(['list', 'id']);
			const searchMethod = siteId?.modes?.[0].typeOptions?.searchListMethod as string;
			expect(node.methods?.listSearch?.[searchMethod]).toBeTypeOf('function');
		}
	});

	it('has Return All and Limit on site Get Many and a 1-100 Limit on audit Get Many', () => {
		expect(property('returnAll', 'getAll')?.displayOptions?.show?.resource).toEqual(['site']);
		const auditLimit = node.description.properties.find(
			(candidate) =>
				candidate.name === 'limit' && candidate.displayOptions?.show?.resource?.includes('audit'),
		);
		expect(auditLimit).toMatchObject({ default: 50, typeOptions: { minValue: 1, maxValue: 100 } });
	});
});
