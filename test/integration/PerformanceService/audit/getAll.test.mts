import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { callsTo } from '../../../support/harness/sandbox.mts';
import { performanceSandbox } from '../performanceNode.mts';

const { sandbox, run, serviceJson } = performanceSandbox();

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
