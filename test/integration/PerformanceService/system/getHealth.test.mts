import { describe, expect, it } from 'vitest';

import { callsTo } from '../../../support/harness/sandbox.mts';
import { performanceSandbox } from '../performanceNode.mts';

const { sandbox, run } = performanceSandbox();

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
