import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { forgetPacers } from '../support/harness/pacers.mts';
import { reasonOf, runNode } from '../support/harness/runNode.mts';
import {
	startScriptedService,
	type ScriptedAnswer,
	type ScriptedService,
} from '../support/harness/scriptedService.mts';

/**
 * Rate-limit times a service, a proxy or a CDN may send out of range, through n8n-core over real
 * HTTP. The clock is the test's: only `Date` is faked, and each answer that makes the node wait
 * moves it past that wait, so a minute's wait takes at most a second of real time (the node
 * sleeps in steps of a second and reads the clock after each).
 */

const health = { resource: 'system', operation: 'getHealth' };
let service: ScriptedService | undefined;

beforeEach(() => {
	forgetPacers();
	vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-03-01T12:00:00.000Z') });
});
afterEach(async () => {
	vi.useRealTimers();
	await service?.close();
	service = undefined;
});

/** Answers in turn (the last one again and again); each answer moves the clock on by `jumpMs` once sent. */
async function serve(answers: ScriptedAnswer[], jumpMs: number): Promise<string> {
	let next = 0;
	service = await startScriptedService(() => {
		const answer = answers[Math.min(next++, answers.length - 1)];
		setTimeout(() => vi.setSystemTime(Date.now() + jumpMs), 20);
		return answer;
	});
	return `${service.origin}/v1`;
}

const rateLimited = (headers: Record<string, string>): ScriptedAnswer => ({
	status: 429,
	headers,
	body: { error: { code: 'rate_limited', message: 'Slow down' } },
});
const ok: ScriptedAnswer = { body: { status: 'ok' } };

describe('a reset out of range is a bounded wait of one minute, with a message', () => {
	it.each([
		['Retry-After', '1e13'],
		['X-RateLimit-Reset', '99999999999999999999'],
	])('a 429 with %s: %s is waited for a minute and retried', async (name, value) => {
		const baseUrl = await serve([rateLimited({ [name]: value }), ok], 61_000);
		const started = Date.now();
		const run = await runNode('performanceService', health, {
			credentials: { baseUrl, apiToken: 'token' },
		});

		expect(run.error).toBeUndefined();
		expect(run.json).toEqual([{ status: 'ok' }]);
		expect(service?.requests).toHaveLength(2);
		// The node's clock: it waited the minute before retrying.
		expect(Date.now() - started).toBeGreaterThanOrEqual(61_000);
	});

	it('a 429 with Retry-After: 1e13 every time ends in a node error naming the header', async () => {
		const baseUrl = await serve([rateLimited({ 'Retry-After': '1e13' })], 61_000);
		const run = await runNode('performanceService', health, {
			credentials: { baseUrl, apiToken: 'token' },
		});

		expect(run.error?.name).toBe('NodeApiError');
		expect(reasonOf(run.error)).toBe('rate_limited');
		expect(run.error?.description).toContain(
			"The service's Retry-After: 1e13 is not a time its limits can reset at",
		);
		expect(service?.requests).toHaveLength(4);
	});
});

describe('X-RateLimit-Reset in other units', () => {
	it('epoch nanoseconds: a 429 is waited for until that time, then retried', async () => {
		const resetNs = `${Date.now() + 30_000}000000`;
		const baseUrl = await serve([rateLimited({ 'X-RateLimit-Reset': resetNs }), ok], 31_000);
		const run = await runNode('performanceService', health, {
			credentials: { baseUrl, apiToken: 'token' },
		});

		expect(run.error).toBeUndefined();
		expect(service?.requests).toHaveLength(2);
	});

	it('30000 holds the next request back 30 s, not 8.3 hours', async () => {
		const spent = {
			'x-ratelimit-limit': '1',
			'x-ratelimit-remaining': '0',
			'x-ratelimit-reset': '30000',
		};
		const baseUrl = await serve([{ ...ok, headers: spent }], 31_000);
		const started = Date.now();
		const run = await runNode('performanceService', health, {
			credentials: { baseUrl, apiToken: 'token' },
			items: [{ n: 1 }, { n: 2 }],
		});

		expect(run.error).toBeUndefined();
		expect(run.json).toEqual([{ status: 'ok' }, { status: 'ok' }]);
		expect(service?.requests).toHaveLength(2);
		expect(Date.now() - started).toBeGreaterThanOrEqual(30_000);
	});
});
