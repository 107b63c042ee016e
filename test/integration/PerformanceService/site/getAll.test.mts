import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { callsTo } from '../../../support/harness/sandbox.mts';
import { performanceSandbox, SIMPLE_SITE_KEYS } from '../performanceNode.mts';

const { sandbox, run, serviceJson } = performanceSandbox();

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
