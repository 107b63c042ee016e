import type { ResetFormat } from './types.mts';

export interface LimitState {
	allowed: boolean;
	limit: number;
	remaining: number;
	/** Real epoch milliseconds at which the oldest counted request leaves the window. */
	resetAt: number;
}

export class SlidingWindowLimiter {
	#hits = new Map<string, number[]>();

	/** Counts one request for `key` when there is room, and reports the window afterwards. */
	take(key: string, limit: number, windowMs: number, now = Date.now()): LimitState {
		const hits = (this.#hits.get(key) ?? []).filter((at) => at > now - windowMs);
		const allowed = hits.length < limit;
		if (allowed) hits.push(now);
		this.#hits.set(key, hits);
		return {
			allowed,
			limit,
			remaining: Math.max(0, limit - hits.length),
			resetAt: (hits[0] ?? now) + windowMs,
		};
	}

	clear(): void {
		this.#hits.clear();
	}
}

function secondsUntil(resetAt: number, now: number): number {
	return Math.max(0, Math.ceil((resetAt - now) / 1000));
}

export function rateLimitHeaders(
	state: LimitState,
	format: ResetFormat,
	now = Date.now(),
): Record<string, string> {
	const reset =
		format === 'epochMillis'
			? Math.ceil(state.resetAt)
			: format === 'epochSeconds'
				? Math.ceil(state.resetAt / 1000)
				: secondsUntil(state.resetAt, now);
	return {
		'x-ratelimit-limit': String(state.limit),
		'x-ratelimit-remaining': String(state.remaining),
		'x-ratelimit-reset': String(reset),
	};
}

export function retryAfterHeader(state: LimitState, now = Date.now()): Record<string, string> {
	return { 'retry-after': String(Math.max(1, secondsUntil(state.resetAt, now))) };
}
