import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
	parseResetValue,
	parseRetryAfter,
	readRateLimit,
	NEAR_RESET_MS,
	waitForResetMs,
} from '../../../../nodes/shared/http/rateLimitHeaders.ts';

const NOW = Date.parse('2025-03-01T12:00:00.000Z');

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

	it('gives the same reset for all three units of one moment', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: Date.parse('2002-01-01'), max: Date.parse('2200-01-01') }),
				fc.integer({ min: 0, max: 30 * 24 * 3600 }),
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
