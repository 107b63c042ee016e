/** Reads X-RateLimit-* / Retry-After headers, whose units the services do not publish. */

import { epochToMilliseconds } from './epochTime';
import { readHeader, type HeaderBag } from './headers';
import { numberOf } from '../lists/recordFields';

export interface RateLimitInfo {
	limit?: number;
	remaining?: number;
	/** When the window frees a request again, if the response said so (always a valid date). */
	resetAt?: Date;
	/**
	 * The header whose reset was out of range, e.g. `Retry-After: 1e13`: `resetAt` is then
	 * `FALLBACK_WAIT_MS` after the answer.
	 */
	outOfRange?: string;
}

/** From here on a reset value is an epoch timestamp (10^9 s is 2001). */
const EPOCH_FROM = 1e9;
/** The longest window either service publishes (the per-site reoptimization hour), in seconds. */
const LONGEST_WINDOW_S = 3600;
/** A reset further than this from now is out of range: no window of these services lasts a day. */
const SANE_RESET_MS = 24 * 3600 * 1000;
/** The wait assumed for a reset out of range: one minute, the services' request window. */
export const FALLBACK_WAIT_MS = 60_000;

/** A reset read, `'out of range'` when it is a time no window of these services can have. */
type Reset = Date | 'out of range' | undefined;

function saneReset(ms: number, now: number): Reset {
	return Math.abs(ms - now) <= SANE_RESET_MS ? new Date(ms) : 'out of range';
}

/**
 * X-RateLimit-Reset may be seconds or milliseconds until the reset, or an epoch timestamp in
 * seconds to nanoseconds; told apart by magnitude. Until the reset it is seconds up to the longest
 * window (an hour) and milliseconds above (30000 is 30 s, not 8.3 hours).
 */
export function parseResetValue(value: string | undefined, now: number): Reset {
	const parsed = numberOf(value);
	if (parsed === undefined || parsed < 0) return undefined;
	if (parsed >= EPOCH_FROM) return saneReset(epochToMilliseconds(parsed), now);
	if (parsed <= LONGEST_WINDOW_S) return new Date(now + parsed * 1000);
	if (parsed <= LONGEST_WINDOW_S * 1000) return new Date(now + parsed);
	return 'out of range';
}

/** Retry-After is either delta-seconds or an HTTP date (RFC 9110). */
export function parseRetryAfter(value: string | undefined, now: number): Reset {
	const seconds = numberOf(value);
	if (seconds !== undefined) return seconds >= 0 ? saneReset(now + seconds * 1000, now) : undefined;
	const date = Date.parse(value ?? '');
	return Number.isNaN(date) ? undefined : saneReset(date, now);
}

export function readRateLimit(headers: HeaderBag, now: number = Date.now()): RateLimitInfo {
	const retryAfterText = readHeader(headers, 'retry-after');
	const resetText = readHeader(headers, 'x-ratelimit-reset');
	const retryAfter = parseRetryAfter(retryAfterText, now);
	const reset = parseResetValue(resetText, now);
	const info: RateLimitInfo = {
		limit: numberOf(readHeader(headers, 'x-ratelimit-limit')),
		remaining: numberOf(readHeader(headers, 'x-ratelimit-remaining')),
	};
	if (retryAfter instanceof Date || reset instanceof Date) {
		info.resetAt = retryAfter instanceof Date ? retryAfter : (reset as Date);
	} else if (retryAfter ?? reset) {
		const [name, text] =
			retryAfter === undefined ? ['X-RateLimit-Reset', resetText] : ['Retry-After', retryAfterText];
		info.resetAt = new Date(now + FALLBACK_WAIT_MS);
		info.outOfRange = `${name}: ${String(text).slice(0, 40)}`;
	}
	return info;
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
