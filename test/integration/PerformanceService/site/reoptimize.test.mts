import { describe, expect, it } from 'vitest';

import { byId } from '../../../support/harness/runNode.mts';
import { callsTo } from '../../../support/harness/sandbox.mts';
import { performanceSandbox } from '../performanceNode.mts';

const { sandbox, run } = performanceSandbox();

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
