import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { readRateLimit } from '../../../../nodes/shared/http/rateLimitHeaders.ts';
import { RequestPacer, type Admission } from '../../../../nodes/shared/pacing/requestPacer.ts';
import { propertyRuns } from '../../../support/harness/propertyRuns.mts';

/**
 * The pace against a model of the service: a sliding window of `limit` requests a minute per
 * credential (the plan), counted when a request arrives, as the services count. Generated
 * histories send requests (some with a limit of their own, like Reoptimize), let time pass, and
 * answer after any latency, out of order, with X-RateLimit-* in any unit or none at all. The
 * promise: no minute sends more than the plan or the learnt window allows (the service never
 * refuses a request for the credential's window), and every request is admitted or held back.
 */

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
/** The plan's minute, shortened: the pacer's and the service's alike. */
const MINUTE = 10_000;
/** Longer than the pacer's wait: a request given up on (held back) rather than waited for. */
const MAX_WAIT = 65_000;

type Unit = 'secondsUntil' | 'millisecondsUntil' | 'epochSeconds' | 'epochMillis' | 'epochNanos';

function resetHeader(resetAt: number, now: number, unit: Unit): string {
	switch (unit) {
		case 'secondsUntil':
			return String(Math.ceil((resetAt - now) / 1000));
		case 'millisecondsUntil':
			return String(resetAt - now);
		case 'epochSeconds':
			return String(Math.ceil(resetAt / 1000));
		case 'epochMillis':
			return String(resetAt);
		case 'epochNanos':
			return `${resetAt}000000`;
	}
}

interface Send {
	kind: 'send';
	count: number;
	/** A request with a limit of its own (its answer's headers describe that limit). */
	own: boolean;
	/** For an own request: refused by its own limit, with a far reset. */
	ownRefused: boolean;
	/** The answer carries the credential's X-RateLimit-* (a proxy or some routes leave them out). */
	headers: boolean;
	unit: Unit;
	latencyMs: number;
}
type Command = Send | { kind: 'wait'; ms: number };

const command: fc.Arbitrary<Command> = fc.oneof(
	fc.record({
		kind: fc.constant('send' as const),
		count: fc.integer({ min: 1, max: 4 }),
		own: fc.boolean(),
		ownRefused: fc.boolean(),
		headers: fc.boolean(),
		unit: fc.constantFrom<Unit>(
			'secondsUntil',
			'millisecondsUntil',
			'epochSeconds',
			'epochMillis',
			'epochNanos',
		),
		latencyMs: fc.integer({ min: 0, max: 3_000 }),
	}),
	fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 8_000 }) }),
);

/** The service: a sliding window of `limit` a minute; refusals for that window are counted. */
function modelService(limit: number) {
	const arrivals: number[] = [];
	let refused = 0;
	return {
		get refused() {
			return refused;
		},
		receive(send: Send): { status: number; headers: Record<string, string> } {
			const now = Date.now();
			while (arrivals.length > 0 && arrivals[0] <= now - MINUTE) arrivals.shift();
			if (arrivals.length >= limit) {
				refused++;
				const resetAt = arrivals[0] + MINUTE;
				return {
					status: 429,
					headers: { 'retry-after': String(Math.ceil((resetAt - now) / 1000)) },
				};
			}
			arrivals.push(now);
			if (send.own) {
				// Its own limit: 20 an hour for this site.
				const resetAt = now + 1_800_000;
				return {
					status: send.ownRefused ? 429 : 200,
					headers: {
						'x-ratelimit-limit': '20',
						'x-ratelimit-remaining': send.ownRefused ? '0' : '7',
						'x-ratelimit-reset': resetHeader(resetAt, now, send.unit),
					},
				};
			}
			if (!send.headers) return { status: 200, headers: {} };
			return {
				status: 200,
				headers: {
					'x-ratelimit-limit': String(limit),
					'x-ratelimit-remaining': String(limit - arrivals.length),
					'x-ratelimit-reset': resetHeader(arrivals[0] + MINUTE, now, send.unit),
				},
			};
		},
	};
}

beforeEach(() => {
	vi.useFakeTimers({ now: T0 });
});
afterEach(() => {
	vi.useRealTimers();
});

describe('the pace against a sliding-window service, under any answer', () => {
	it('never sends more in a minute than the plan or the learnt window allows, and settles every request', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.integer({ min: 1, max: 6 }),
				fc.array(command, { maxLength: 25 }),
				async (limit, commands) => {
					vi.setSystemTime(T0);
					const pacer = new RequestPacer(MINUTE);
					pacer.setPlan(limit);
					const service = modelService(limit);
					const admissions: Array<Promise<Admission>> = [];
					const answer = async (send: Send): Promise<Admission> => {
						const admission = await pacer.admit(MAX_WAIT);
						if (!admission.admitted) return admission;
						const { status, headers } = service.receive(send);
						setTimeout(() => {
							const rateLimit = readRateLimit(headers);
							admission.settle({ status, rateLimit, ownLimit: send.own });
						}, send.latencyMs);
						return admission;
					};
					for (const step of commands) {
						if (step.kind === 'wait') await vi.advanceTimersByTimeAsync(step.ms);
						else for (let i = 0; i < step.count; i++) admissions.push(answer(step));
						await vi.advanceTimersByTimeAsync(0);
					}
					let settled = false;
					const all = Promise.all(admissions).then(() => (settled = true));
					// At most 100 requests, at least one a minute.
					for (let minutes = 0; minutes < 110 && !settled; minutes++)
						await vi.advanceTimersByTimeAsync(MINUTE);
					await vi.advanceTimersByTimeAsync(5_000);

					expect(settled).toBe(true);
					await all;
					expect(service.refused).toBe(0);
				},
			),
			propertyRuns(150),
		);
	});
});
