/** Reads X-RateLimit-* / Retry-After headers, whose units the services do not publish. */

import { epochToMilliseconds } from './epochTime';
import { readHeader, type HeaderBag } from './headers';
import { numberOf } from '../lists/recordFields';

export interface RateLimitInfo {
	limit?: number;
	remaining?: number;
	/** When the window frees a request again, if the response said so. */
	resetAt?: Date;
}

/** From here on a reset value is an epoch timestamp, below it seconds until the reset (no delay of 30 years is plausible). */
const EPOCH_FROM = 1e9;

/** X-RateLimit-Reset may be epoch milliseconds, epoch seconds or seconds until the reset; told apart by magnitude. */
export function parseResetValue(value: string | undefined, now: number): Date | undefined {
	const parsed = numberOf(value);
	if (parsed === undefined || parsed < 0) return undefined;
	if (parsed >= EPOCH_FROM) return new Date(epochToMilliseconds(parsed));
	return new Date(now + parsed * 1000);
}

/** Retry-After is either delta-seconds or an HTTP date (RFC 9110). */
export function parseRetryAfter(value: string | undefined, now: number): Date | undefined {
	const seconds = numberOf(value);
	if (seconds !== undefined) return seconds >= 0 ? new Date(now + seconds * 1000) : undefined;
	const date = Date.parse(value ?? '');
	return Number.isNaN(date) ? undefined : new Date(date);
}

export function readRateLimit(headers: HeaderBag, now: number = Date.now()): RateLimitInfo {
	const retryAfter = parseRetryAfter(readHeader(headers, 'retry-after'), now);
	const reset = parseResetValue(readHeader(headers, 'x-ratelimit-reset'), now);
	return {
		limit: numberOf(readHeader(headers, 'x-ratelimit-limit')),
		remaining: numberOf(readHeader(headers, 'x-ratelimit-remaining')),
		resetAt: retryAfter ?? reset,
	};
}

/** A 429 (or the credential's pace) whose reset is at most this far away is waited for; a later one fails at once. */
export const NEAR_RESET_MS = 65_000;

/**
 * How long to wait before retrying a 429: the time until the reset when it is at most
 * `NEAR_RESET_MS` away (0 when it has passed), or undefined when the reset is unknown or too far.
 */
export function waitForResetMs(rateLimit: RateLimitInfo, now: number): number | undefined {
	if (!rateLimit.resetAt) return undefined;
	const waitMs = rateLimit.resetAt.getTime() - now;
	return waitMs <= NEAR_RESET_MS ? Math.max(waitMs, 0) : undefined;
}
