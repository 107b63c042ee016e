import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { byId, reasonOf, runNode, type RunNodeOptions } from '../support/harness/runNode.mts';
import { requestsTo, withSandbox } from '../support/harness/sandbox.mts';

const SLOW_MS = 1500;
const sandbox = withSandbox();

const siteGet = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'site',
	operation: 'get',
	siteId: byId('={{ $json.site }}'),
	simplify: false,
	...extra,
});
const run = (parameters: INodeParameters, options: RunNodeOptions) =>
	runNode('performanceService', parameters, { sandbox, ...options });

/** Good and bad items mixed: two unknown sites (404) and one ID refused before any request. */
const MIXED = ['site_1', 'site_9', 'site_2', 'bad/../id', 'site_3', 'site_8', 'site_4', 'site_1'];

function arrivalOf(path: string): number {
	const request = requestsTo(sandbox, 'performance').find((candidate) => candidate.path === path);
	if (!request) throw new Error(`no request to ${path}`);
	return request.at;
}

describe('items in parallel (default)', () => {
	it('keeps output order, pairing and Continue On Fail when answers come back out of order', async () => {
		// The first request of a credential goes alone (it tells whether the service sends
		// rate-limit headers); the third item then answers last, after the items sent with it.
		sandbox.setFault({
			service: 'performance',
			method: 'GET',
			path: '/sites/site_2',
			kind: 'slow',
			delayMs: SLOW_MS,
			times: 1,
		});
		const result = await run(siteGet(), {
			items: MIXED.map((site) => ({ site })),
			continueOnFail: true,
		});

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.pairedItem)).toEqual(MIXED.map((_, item) => ({ item })));
		expect(
			result.json.map((json) => json.id ?? reasonOf(json.error as string) ?? json.error),
		).toEqual([
			'site_1',
			'not_found',
			'site_2',
			'The site ID "bad/../id" is not a valid ID',
			'site_3',
			'not_found',
			'site_4',
			'site_1',
		]);
		expect(result.json[1].error).toBe('The site "site_9" was not found [not_found]');
		expect(result.json[5].error).toBe('The site "site_8" was not found [not_found]');

		const paths = requestsTo(sandbox, 'performance').map((request) => request.path);
		expect([...paths].sort()).toEqual(
			['site_1', 'site_9', 'site_2', 'site_3', 'site_8', 'site_4', 'site_1']
				.map((site) => `/sites/${site}`)
				.sort(),
		);
		const slowStartedAt = arrivalOf('/sites/site_2');
		for (const site of ['site_9', 'site_3', 'site_8', 'site_4']) {
			expect(arrivalOf(`/sites/${site}`) - slowStartedAt).toBeLessThan(SLOW_MS);
		}
	});

	it("fails the node with the first failing item's error without Continue On Fail", async () => {
		// Item 1 fails last (a slow 404); item 3 fails at once (an ID refused before any request).
		sandbox.setFault({
			service: 'performance',
			method: 'GET',
			path: '/sites/site_9',
			kind: 'slow',
			delayMs: 500,
			times: 1,
		});
		const result = await run(siteGet(), { items: MIXED.map((site) => ({ site })) });

		expect(result.status).toBe('error');
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe('The site "site_9" was not found [not_found]');
		expect(result.error?.context?.itemIndex).toBe(1);
		expect(result.items).toEqual([]);
	});

	it('sends every page of Return All in order within each item', async () => {
		sandbox.setOptions({ securityListShape: 'paginated' });
		for (let index = 0; index < 25; index++) {
			sandbox.addThreat({ severity: 'low', siteId: 'st_1' });
			sandbox.addThreat({ severity: 'medium', siteId: 'st_2' });
		}
		const severities = ['low', 'high', 'medium'];
		const result = await runNode(
			'securityService',
			{
				resource: 'threat',
				operation: 'getAll',
				returnAll: true,
				queryParameters: { parameters: [{ name: 'severity', value: '={{ $json.severity }}' }] },
			},
			{ sandbox, items: severities.map((severity) => ({ severity })) },
		);

		expect(result.error).toBeUndefined();
		const counts = severities.map(
			(severity) => result.json.filter((threat) => threat.severity === severity).length,
		);
		expect(counts[0]).toBeGreaterThan(20);
		expect(counts[2]).toBeGreaterThan(20);
		const expectedOrder = severities.flatMap((severity, item) =>
			Array.from({ length: counts[item] }, () => ({ severity, item })),
		);
		expect(
			result.items.map((entry) => ({
				severity: entry.json.severity,
				item: (entry.pairedItem as { item: number }).item,
			})),
		).toEqual(expectedOrder);
		// Each item's pages are asked for one after the other, each only after the one before.
		for (const severity of severities) {
			const pages = requestsTo(sandbox, 'security')
				.filter((request) => request.query.severity === severity)
				.map((request) => Number(request.query.page ?? '1'));
			expect(pages).toEqual(Array.from({ length: pages.length }, (_, index) => index + 1));
			expect(pages.length).toBe(Math.max(1, Math.ceil(counts[severities.indexOf(severity)] / 10)));
		}
	});
});

describe('Parallel Requests = 1', () => {
	it('sends one item at a time, in input order', async () => {
		sandbox.setFault({
			service: 'performance',
			method: 'GET',
			path: '/sites/site_1',
			kind: 'slow',
			delayMs: 300,
			times: 1,
		});
		const sites = ['site_1', 'site_2', 'site_9', 'site_3'];
		const result = await run(siteGet({ options: { parallelRequests: 1 } }), {
			items: sites.map((site) => ({ site })),
			continueOnFail: true,
		});

		expect(result.json.map((json) => json.id ?? reasonOf(json.error as string))).toEqual([
			'site_1',
			'site_2',
			'not_found',
			'site_3',
		]);
		expect(requestsTo(sandbox, 'performance').map((request) => request.path)).toEqual(
			sites.map((site) => `/sites/${site}`),
		);
		// The second item left only after the first (slow) one was answered.
		expect(arrivalOf('/sites/site_2') - arrivalOf('/sites/site_1')).toBeGreaterThanOrEqual(300);
	});
});
