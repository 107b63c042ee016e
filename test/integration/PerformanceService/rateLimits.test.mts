import { describe, expect, it } from 'vitest';

import { byId, reasonOf } from '../../support/harness/runNode.mts';
import { callsTo, requestsTo } from '../../support/harness/sandbox.mts';
import type { ResetFormat } from '../../support/sandbox/index.mts';
import { performanceSandbox } from './performanceNode.mts';

/**
 * At time scale 30 the per-token minute lasts 2 s (a near reset: the node waits for it) and the
 * per-site reoptimization hour lasts 120 s (a far reset: beyond the node's 65 s wait, so it fails).
 */
const TIME_SCALE = 30;
const NEAR_WAIT_LIMIT_MS = 65_000;

const { sandbox, run } = performanceSandbox({ timeScale: TIME_SCALE });

const health = { resource: 'system', operation: 'getHealth' };
const reoptimize = (id: string) => ({
	resource: 'site',
	operation: 'reoptimize',
	siteId: byId(id),
});
const formats: Array<{ resetFormat: ResetFormat; retryAfter: boolean }> = [
	{ resetFormat: 'epochSeconds', retryAfter: false },
	{ resetFormat: 'epochMillis', retryAfter: false },
	{ resetFormat: 'secondsUntilReset', retryAfter: false },
	{ resetFormat: 'epochSeconds', retryAfter: true },
];
const label = ({ resetFormat, retryAfter }: (typeof formats)[number]) =>
	`X-RateLimit-Reset as ${resetFormat}${retryAfter ? ' with Retry-After' : ''}`;

function resetInMessage(message: string | undefined): number {
	const match = /\(resets at (\S+)\)$/.exec(message ?? '');
	return match ? Date.parse(match[1]) : NaN;
}

/** Another process using the same token spends the window: the node's pace cannot know that. */
async function spendWindowElsewhere(requests: number): Promise<void> {
	for (let index = 0; index < requests; index++) {
		await fetch(`${sandbox.performanceUrl}/system`, {
			headers: { authorization: `Bearer ${sandbox.tokens.readWrite}` },
		});
	}
}

describe('a 429 whose reset is near: the node waits for the reset and retries', () => {
	for (const format of formats) {
		it(label(format), async () => {
			sandbox.setOptions({ ...format, limits: { requestsPerMinute: 2 } });
			await spendWindowElsewhere(2);
			const result = await run(health, { items: [{ n: 1 }, { n: 2 }, { n: 3 }] });

			expect(result.error).toBeUndefined();
			expect(result.json.map((json) => json.status)).toEqual(['ok', 'ok', 'ok']);
			expect(result.items.map((item) => item.pairedItem)).toEqual([
				{ item: 0 },
				{ item: 1 },
				{ item: 2 },
			]);
			// The other process's two; the node's first request refused with 429, then after the
			// reset the same request again and the other two, held back rather than sent into the limit.
			expect(callsTo(sandbox, 'performance')).toEqual(
				Array.from({ length: 6 }, () => ({
					method: 'GET',
					path: '/system',
					query: {},
					auth: `Bearer ${sandbox.tokens.readWrite}`,
				})),
			);
			expect(requestsTo(sandbox, 'performance').map((request) => request.status)).toEqual([
				200, 200, 429, 200, 200, 200,
			]);
		});
	}

	it('retries a refused Reoptimize too: a 429 means the service did not carry it out', async () => {
		sandbox.setOptions({ limits: { requestsPerMinute: 1 } });
		const result = await run(reoptimize('={{ $json.site }}'), {
			items: [{ site: 'site_1' }, { site: 'site_2' }],
		});
		expect(result.json).toEqual([
			{ ok: true, queued: 4, siteId: 'site_1' },
			{ ok: true, queued: 4, siteId: 'site_2' },
		]);
		expect(callsTo(sandbox, 'performance').map((call) => `${call.method} ${call.path}`)).toEqual([
			'POST /sites/site_1/reoptimize',
			'POST /sites/site_2/reoptimize',
			'POST /sites/site_2/reoptimize',
		]);
	});

	it('gives up after a bounded number of retries and says so', async () => {
		sandbox.setOptions({
			timeScale: 60,
			resetFormat: 'epochMillis',
			limits: { requestsPerMinute: 0 },
		});
		const { error } = await run(health);

		expect(error?.name).toBe('NodeApiError');
		expect(reasonOf(error)).toBe('rate_limited');
		expect(error?.httpCode).toBe('429');
		expect(callsTo(sandbox, 'performance')).toHaveLength(4);
	});
});

describe('a 429 whose reset is far (the per-site reoptimization hour): the item fails at once', () => {
	for (const format of formats) {
		it(label(format), async () => {
			sandbox.setOptions({ ...format, limits: { reoptimizationsPerHour: 1 } });
			const result = await run(reoptimize('={{ $json.site }}'), {
				items: [{ site: 'site_1' }, { site: 'site_1' }, { site: 'site_2' }],
				continueOnFail: true,
			});

			expect(result.json[0]).toEqual({ ok: true, queued: 4, siteId: 'site_1' });
			expect(result.json[2]).toEqual({ ok: true, queued: 4, siteId: 'site_2' });
			const failed = result.json[1];
			expect(Object.keys(failed)).toEqual(['error', 'message']);
			expect(reasonOf(failed.error)).toBe('rate_limited');
			expect(failed.error).toContain('site site_1');
			const resetAt = resetInMessage(failed.error as string);
			const requestedAt = sandbox.requests[1].at;
			expect(resetAt - requestedAt).toBeGreaterThan(NEAR_WAIT_LIMIT_MS);
			expect(resetAt - requestedAt).toBeLessThanOrEqual(3_600_000 / TIME_SCALE + 1000);
			expect(result.items.map((item) => item.pairedItem)).toEqual([
				{ item: 0 },
				{ item: 1 },
				{ item: 2 },
			]);
			// Exactly one attempt for the refused item: no retry.
			expect(callsTo(sandbox, 'performance').map((call) => call.path)).toEqual([
				'/sites/site_1/reoptimize',
				'/sites/site_1/reoptimize',
				'/sites/site_2/reoptimize',
			]);
		});
	}

	it('stops the workflow with the reset time without Continue On Fail', async () => {
		sandbox.setOptions({ limits: { reoptimizationsPerHour: 1 } });
		const { error } = await run(reoptimize('site_3'), { items: [{ n: 1 }, { n: 2 }] });
		expect(error?.name).toBe('NodeApiError');
		expect(reasonOf(error)).toBe('rate_limited');
		expect(resetInMessage(error?.message)).toBeGreaterThan(Date.now() + NEAR_WAIT_LIMIT_MS);
		expect(error?.httpCode).toBe('429');
		expect(error?.context?.itemIndex).toBe(1);
		expect(callsTo(sandbox, 'performance')).toHaveLength(2);
	});
});
