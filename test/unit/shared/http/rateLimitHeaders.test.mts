import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
	FALLBACK_WAIT_MS,
	parseResetValue as parseReset,
	parseRetryAfter as parseRetry,
	readRateLimit,
	NEAR_RESET_MS,
	waitForResetMs,
} from '../../../../nodes/shared/http/rateLimitHeaders.ts';
import { describeResetTime } from '../../../../nodes/shared/http/rateLimitMessages.ts';
import { propertyRuns } from '../../../support/harness/propertyRuns.mts';

const NOW = Date.parse('2025-03-01T12:00:00.000Z');

/** The reset read as a date; a value out of range fails the test. */
function dateOf(reset: Date | 'out of range' | undefined): Date | undefined {
	if (reset === 'out of range') throw new Error('unexpectedly out of range');
	return reset;
}
const parseResetValue = (value: string | undefined, now: number) => dateOf(parseReset(value, now));
const parseRetryAfter = (value: string | undefined, now: number) => dateOf(parseRetry(value, now));

describe('parseResetValue: X-RateLimit-Reset in any of its units', () => {
	it('reads epoch seconds', () => {
		expect(parseResetValue(String(NOW / 1000 + 30), NOW)?.toISOString()).toBe(
			'2025-03-01T12:00:30.000Z',
		);
	});

	it('reads epoch milliseconds', () => {
		expect(parseResetValue(String(NOW + 30_000), NOW)?.toISOString()).toBe(
			'2025-03-01T12:00:30.000Z',
		);
	});

	it('reads seconds until the reset', () => {
		expect(parseResetValue('30', NOW)?.toISOString()).toBe('2025-03-01T12:00:30.000Z');
		expect(parseResetValue('0', NOW)?.getTime()).toBe(NOW);
		expect(parseResetValue('3600', NOW)?.toISOString()).toBe('2025-03-01T13:00:00.000Z');
		expect(parseResetValue(' 1.5 ', NOW)?.getTime()).toBe(NOW + 1500);
	});

	it('ignores what is not a usable number', () => {
		for (const value of [undefined, '', '  ', 'soon', '-5', 'NaN', 'Infinity']) {
			expect(parseResetValue(value, NOW)).toBeUndefined();
		}
	});

	// Up to the longest window, an hour: a longer delta is read as milliseconds (case 7 of issue 38).
	it('gives the same reset for all three units of one moment', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: Date.parse('2002-01-01'), max: Date.parse('2200-01-01') }),
				fc.integer({ min: 0, max: 3600 }),
				(now, secondsAhead) => {
					const resetMs = now + secondsAhead * 1000;
					const asSeconds = parseResetValue(String(Math.ceil(resetMs / 1000)), now)?.getTime();
					const asMillis = parseResetValue(String(resetMs), now)?.getTime();
					const asDelta = parseResetValue(String(secondsAhead), now)?.getTime();
					expect(asMillis).toBe(resetMs);
					expect(asDelta).toBe(resetMs);
					expect(asSeconds! - resetMs).toBeGreaterThanOrEqual(0);
					expect(asSeconds! - resetMs).toBeLessThan(1000);
				},
			),
		);
	});
});

describe('parseRetryAfter', () => {
	it('reads delta seconds and HTTP dates', () => {
		expect(parseRetryAfter('12', NOW)?.getTime()).toBe(NOW + 12_000);
		expect(parseRetryAfter('Sat, 01 Mar 2025 12:01:00 GMT', NOW)?.toISOString()).toBe(
			'2025-03-01T12:01:00.000Z',
		);
	});

	it('ignores empty, negative and unreadable values', () => {
		for (const value of [undefined, '', '-1', 'later'])
			expect(parseRetryAfter(value, NOW)).toBeUndefined();
	});
});

describe('readRateLimit', () => {
	it('reads the X-RateLimit-* headers whatever their case', () => {
		const info = readRateLimit(
			{ 'X-RateLimit-Limit': '1000', 'x-ratelimit-remaining': ['7'], 'X-RATELIMIT-RESET': '42' },
			NOW,
		);
		expect(info).toEqual({ limit: 1000, remaining: 7, resetAt: new Date(NOW + 42_000) });
	});

	it('prefers Retry-After to X-RateLimit-Reset', () => {
		const info = readRateLimit({ 'retry-after': '5', 'x-ratelimit-reset': '50' }, NOW);
		expect(info.resetAt?.getTime()).toBe(NOW + 5000);
	});

	it('leaves out what the response did not say', () => {
		expect(readRateLimit({ 'content-type': 'application/json' }, NOW)).toEqual({
			limit: undefined,
			remaining: undefined,
			resetAt: undefined,
		});
	});
});

describe('waitForResetMs: wait for a near reset, not for a far one', () => {
	// The README promises 65 s.
	const max = 65_000;

	it('waits at most 65 s', () => {
		expect(NEAR_RESET_MS).toBe(max);
	});

	it('waits until a reset within the maximum', () => {
		expect(waitForResetMs({ resetAt: new Date(NOW + 2_000) }, NOW)).toBe(2_000);
		expect(waitForResetMs({ resetAt: new Date(NOW + max) }, NOW)).toBe(max);
	});

	it('retries at once when the reset has passed', () => {
		expect(waitForResetMs({ resetAt: new Date(NOW - 3_000) }, NOW)).toBe(0);
	});

	it('does not wait for a far or unknown reset', () => {
		expect(waitForResetMs({ resetAt: new Date(NOW + 3_600_000) }, NOW)).toBeUndefined();
		expect(waitForResetMs({ resetAt: new Date(NOW + max + 1) }, NOW)).toBeUndefined();
		expect(waitForResetMs({}, NOW)).toBeUndefined();
	});
});

describe('reset values out of range (issue 38, case 7)', () => {
	it('reads milliseconds until the reset above an hour of seconds: 30000 is 30 s, not 8.3 hours', () => {
		expect(parseResetValue('30000', NOW)?.getTime()).toBe(NOW + 30_000);
		expect(parseResetValue('3601', NOW)?.getTime()).toBe(NOW + 3601);
	});

	it('reads epoch microseconds and nanoseconds', () => {
		expect(parseResetValue(String((NOW + 30_000) * 1000), NOW)?.getTime()).toBe(NOW + 30_000);
		expect(parseResetValue(`${NOW + 30_000}000000`, NOW)?.getTime()).toBe(NOW + 30_000);
	});

	it.each([
		['Retry-After', '1e13'],
		['Retry-After', String(2 * 24 * 3600)],
		['Retry-After', 'Sat, 01 Mar 2125 12:01:00 GMT'],
		['X-RateLimit-Reset', '1e13'],
		['X-RateLimit-Reset', '99999999999999999999999'],
		['X-RateLimit-Reset', '5000000'],
		['X-RateLimit-Reset', String(NOW / 1000 + 3 * 24 * 3600)],
	])(
		'%s: %s is out of range: a reset one minute after the answer, and a message naming it',
		(name, value) => {
			const info = readRateLimit({ [name]: value, 'x-ratelimit-remaining': '0' }, NOW);
			expect(info.resetAt?.getTime()).toBe(NOW + FALLBACK_WAIT_MS);
			expect(info.outOfRange).toBe(`${name}: ${value}`);
			expect(describeResetTime(info, NOW)).toBe(
				`The service's ${name}: ${value} is not a time its limits can reset at, so the node took the limit to reset a minute after the answer, at 2025-03-01T12:01:00.000Z (in 60 s).`,
			);
		},
	);

	it('prefers a reset in range to one out of range', () => {
		const info = readRateLimit({ 'retry-after': '1e13', 'x-ratelimit-reset': '20' }, NOW);
		expect(info).toEqual({
			limit: undefined,
			remaining: undefined,
			resetAt: new Date(NOW + 20_000),
		});
	});

	const header = fc.oneof(
		fc.nat(3600).map(String),
		fc.nat(3_600_000).map(String),
		fc.integer({ min: -86_400, max: 86_400 }).map((s) => String(Math.floor(NOW / 1000) + s)),
		fc.integer({ min: -86_400_000, max: 86_400_000 }).map((ms) => String(NOW + ms)),
		fc.integer({ min: -86_400_000, max: 86_400_000 }).map((ms) => `${NOW + ms}000`),
		fc.integer({ min: -86_400_000, max: 86_400_000 }).map((ms) => `${NOW + ms}000000`),
		fc.double({ noNaN: false }).map(String),
		fc.constantFrom('1e13', '1e308', '1e400', '-1', '-0', 'NaN', 'Infinity', '', ' ', 'soon'),
		fc
			.date({ noInvalidDate: false })
			.map((date) => (Number.isNaN(date.getTime()) ? 'Invalid Date' : date.toUTCString())),
		fc.string({ maxLength: 12 }),
	);

	it('never gives an invalid date, a reset more than a day away, or a message that throws', () => {
		fc.assert(
			fc.property(
				fc.option(header, { nil: undefined }),
				fc.option(header, { nil: undefined }),
				fc.option(header, { nil: undefined }),
				(retryAfter, reset, remaining) => {
					const headers: Record<string, string> = {};
					if (retryAfter !== undefined) headers['retry-after'] = retryAfter;
					if (reset !== undefined) headers['x-ratelimit-reset'] = reset;
					if (remaining !== undefined) headers['x-ratelimit-remaining'] = remaining;
					const info = readRateLimit(headers, NOW);
					if (info.resetAt) {
						expect(Number.isFinite(info.resetAt.getTime())).toBe(true);
						expect(Math.abs(info.resetAt.getTime() - NOW)).toBeLessThanOrEqual(86_400_000);
					}
					if (info.remaining !== undefined) expect(Number.isFinite(info.remaining)).toBe(true);
					expect(describeResetTime(info, NOW)).toMatch(/\.$/);
					const wait = waitForResetMs(info, NOW);
					if (wait !== undefined) expect(wait).toBeGreaterThanOrEqual(0);
					if (wait !== undefined) expect(wait).toBeLessThanOrEqual(NEAR_RESET_MS);
				},
			),
			propertyRuns(1000),
		);
	});
});
