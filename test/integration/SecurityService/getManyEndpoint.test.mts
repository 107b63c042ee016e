import { beforeEach, describe, expect, it } from 'vitest';

import type { SecurityListShape } from '../../support/sandbox/index.mts';
import { securitySandbox } from './securityNode.mts';

/**
 * Get Many of every resource (actions/getManyEndpoint.ts): the resources differ only in their
 * path, so one file tests them all.
 */
const { sandbox, run, securityRequests, serviceList } = securitySandbox();

describe('Security Service: Get Many', () => {
	it.each([
		['site', 'sites', ['st_1', 'st_2', 'st_3']],
		['scan', 'scans', ['scn_1', 'scn_2', 'scn_3', 'scn_4']],
		['update', 'updates', ['upd_1', 'upd_2', 'upd_3', 'upd_4', 'upd_5']],
		['report', 'reports', ['rep_1', 'rep_2', 'rep_3']],
	])('%s: GET /%s with the key, one item per record', async (resource, path, ids) => {
		const result = await run({ resource, operation: 'getAll', returnAll: true });

		expect(result.status).toBe('success');
		expect(result.json.map((record) => record.id)).toEqual(ids);
		expect(result.items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(
			true,
		);
		const [request] = securityRequests();
		expect(securityRequests()).toHaveLength(1);
		expect(request).toMatchObject({ method: 'GET', path: `/${path}`, query: {}, body: '' });
		expect(request.headers.authorization).toBe(`Bearer ${sandbox.securityKey}`);
		expect(request.headers['content-type']).toBeUndefined();
	});

	it('threat: emits the records as the service sent them', async () => {
		const sent = await serviceList('threats');
		const result = await run({ resource: 'threat', operation: 'getAll', returnAll: true });

		const threats = result.json;
		expect(threats).toHaveLength(27);
		expect(threats).toEqual(sent);
		expect(threats[0]).toEqual({
			id: 'thr_1',
			siteId: 'st_1',
			severity: 'low',
			type: 'malware',
			title: 'Injected script in theme footer',
			status: 'open',
			detectedAt: sent[0].detectedAt,
			resolvedAt: null,
		});
	});

	it('cuts the list at the limit', async () => {
		const result = await run({
			resource: 'threat',
			operation: 'getAll',
			returnAll: false,
			limit: 5,
		});

		expect(result.json.map((record) => record.id)).toEqual([
			'thr_1',
			'thr_2',
			'thr_3',
			'thr_4',
			'thr_5',
		]);
		expect(securityRequests()).toHaveLength(1);
	});

	it.each<SecurityListShape>(['bare', 'wrapped', 'data'])(
		'reads the %s list shape to the same items',
		async (shape) => {
			sandbox.setOptions({ securityListShape: shape });
			const result = await run({ resource: 'update', operation: 'getAll', returnAll: true });

			expect(result.json.map((record) => record.id)).toEqual([
				'upd_1',
				'upd_2',
				'upd_3',
				'upd_4',
				'upd_5',
			]);
		},
	);

	it('gives the same output when the service switches from a bare to a wrapped list', async () => {
		sandbox.setOptions({ securityListShape: 'bare' });
		const bare = (await run({ resource: 'threat', operation: 'getAll', returnAll: true })).json;
		sandbox.setOptions({ securityListShape: 'wrapped' });
		const wrapped = (await run({ resource: 'threat', operation: 'getAll', returnAll: true })).json;

		expect(bare).toHaveLength(27);
		expect(wrapped).toEqual(bare);
	});

	it('passes query parameters through untouched', async () => {
		const result = await run({
			resource: 'threat',
			operation: 'getAll',
			returnAll: true,
			queryParameters: {
				parameters: [
					{ name: 'severity', value: 'high' },
					{ name: 'status', value: 'open' },
				],
			},
		});

		expect(securityRequests()[0].query).toEqual({ severity: 'high', status: 'open' });
		const threats = result.json;
		expect(threats.length).toBeGreaterThan(0);
		expect(threats.every((threat) => threat.severity === 'high' && threat.status === 'open')).toBe(
			true,
		);
	});

	it('sends a parameter given twice twice, as `name=a&name=b`', async () => {
		await run({
			resource: 'scan',
			operation: 'getAll',
			returnAll: true,
			queryParameters: {
				parameters: [
					{ name: 'status', value: 'running' },
					{ name: 'status', value: 'failed' },
				],
			},
		});

		// The sandbox records the last value of a repeated name; an indexed form would show `status[0]`.
		expect(securityRequests()[0].query).toEqual({ status: 'failed' });
	});

	it('runs once per input item, each output paired with its input', async () => {
		const result = await run(
			{ resource: 'site', operation: 'getAll', returnAll: false, limit: 1 },
			{ items: [{}, {}] },
		);

		expect(result.items.map((item) => [item.json.id, item.pairedItem])).toEqual([
			['st_1', { item: 0 }],
			['st_1', { item: 1 }],
		]);
	});

	it('does not double the slash after a base URL ending in "/"', async () => {
		await run(
			{ resource: 'site', operation: 'getAll', returnAll: true },
			{ credentials: { baseUrl: `${sandbox.securityUrl}/` } },
		);

		expect(securityRequests()[0].path).toBe('/sites');
	});
});

describe('Security Service: pagination', () => {
	beforeEach(() => sandbox.setOptions({ securityListShape: 'paginated' }));

	it('Return All follows the pages until the last', async () => {
		const result = await run({ resource: 'threat', operation: 'getAll', returnAll: true });

		expect(result.json.map((record) => record.id)).toEqual(
			Array.from({ length: 27 }, (_, index) => `thr_${index + 1}`),
		);
		expect(securityRequests().map((request) => request.query)).toEqual([
			{},
			{ page: '2' },
			{ page: '3' },
		]);
		expect(
			securityRequests().every(
				(request) => request.headers.authorization === `Bearer ${sandbox.securityKey}`,
			),
		).toBe(true);
	});

	it('keeps the query parameters on the following pages', async () => {
		const result = await run({
			resource: 'threat',
			operation: 'getAll',
			returnAll: true,
			queryParameters: {
				parameters: [
					{ name: 'per_page', value: '5' },
					{ name: 'status', value: 'open' },
				],
			},
		});

		const open = result.json;
		expect(open.length).toBe(21);
		expect(open.every((threat) => threat.status === 'open')).toBe(true);
		expect(securityRequests().map((request) => request.query)).toEqual([
			{ per_page: '5', status: 'open' },
			{ per_page: '5', status: 'open', page: '2' },
			{ per_page: '5', status: 'open', page: '3' },
			{ per_page: '5', status: 'open', page: '4' },
			{ per_page: '5', status: 'open', page: '5' },
		]);
	});

	it('reads only the pages a limit needs', async () => {
		const result = await run({
			resource: 'threat',
			operation: 'getAll',
			returnAll: false,
			limit: 12,
		});

		expect(result.json).toHaveLength(12);
		expect(securityRequests()).toHaveLength(2);
	});
});
