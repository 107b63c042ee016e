import { describe, expect, it } from 'vitest';

import { byId } from '../../support/harness/runNode.mts';
import { callsTo } from '../../support/harness/sandbox.mts';
import { performanceSandbox } from './performanceNode.mts';

const { sandbox, run } = performanceSandbox();

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
