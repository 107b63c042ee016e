/** Reads X-RateLimit-* / Retry-After headers, whose units the services do not publish. */

export interface RateLimitInfo {
	limit?: number;
	remaining?: number;
	/** When the window frees a request again, if the response said so. */
	resetAt?: Date;
}

type HeaderBag = Record<string, string | string[] | undefined>;

const EPOCH_MILLIS_THRESHOLD = 1e12;
const EPOCH_SECONDS_THRESHOLD = 1e9;

function header(headers: HeaderBag, name: string): string | undefined {
	const wanted = name.toLowerCase();
	for (const [key, value] of Object.entries(headers)) {
		if (key.toLowerCase() === wanted) return Array.isArray(value) ? value[0] : value;
	}
	return undefined;
}

function toNumber(value: string | undefined): number | undefined {
	if (value === undefined || value.trim() === '') return undefined;
	const parsed = Number(value.trim());
	return Number.isFinite(parsed) ? parsed : undefined;
}

/**
 * X-RateLimit-Reset may be epoch milliseconds, epoch seconds or seconds until the reset;
 * told apart by magnitude (no delay of 30 years is plausible).
 */
export function parseResetValue(value: string | undefined, now: number): Date | undefined {
	const parsed = toNumber(value);
	if (parsed === undefined || parsed < 0) return undefined;
	if (parsed >= EPOCH_MILLIS_THRESHOLD) return new Date(parsed);
	if (parsed >= EPOCH_SECONDS_THRESHOLD) return new Date(parsed * 1000);
	return new Date(now + parsed * 1000);
}

/** Retry-After is either delta-seconds or an HTTP date (RFC 9110). */
export function parseRetryAfter(value: string | undefined, now: number): Date | undefined {
	if (value === undefined || value.trim() === '') return undefined;
	const seconds = toNumber(value);
	if (seconds !== undefined) return seconds >= 0 ? new Date(now + seconds * 1000) : undefined;
	const date = Date.parse(value);
	return Number.isNaN(date) ? undefined : new Date(date);
}

export function readRateLimit(headers: HeaderBag, now: number = Date.now()): RateLimitInfo {
	const retryAfter = parseRetryAfter(header(headers, 'retry-after'), now);
	const reset = parseResetValue(header(headers, 'x-ratelimit-reset'), now);
	return {
		limit: toNumber(header(headers, 'x-ratelimit-limit')),
		remaining: toNumber(header(headers, 'x-ratelimit-remaining')),
		resetAt: retryAfter ?? reset,
	};
}

/**
 * How long to wait before retrying a 429: the time until the reset when it is at most
 * `maxWaitMs` away (0 when it has passed), or undefined when the reset is unknown or too far.
 */
export function waitForResetMs(rateLimit: RateLimitInfo, now: number, maxWaitMs: number): number | undefined {
	if (!rateLimit.resetAt) return undefined;
	const waitMs = rateLimit.resetAt.getTime() - now;
	return waitMs <= maxWaitMs ? Math.max(waitMs, 0) : undefined;
}
