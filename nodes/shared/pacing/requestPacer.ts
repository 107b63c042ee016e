import { sleep } from 'n8n-workflow';

import type { RateLimitInfo } from '../http/rateLimitHeaders';

/** What came back for a request that held a permit. */
export interface PacerAnswer {
	status: number;
	rateLimit: RateLimitInfo;
	/**
	 * The headers describe a narrower limit of this request alone (the per-site reoptimization
	 * hour), not the credential's: they are not taken as the credential's window, but the request
	 * counts in it, and a 429 whose reset is within a minute (it may be the credential's) blocks it.
	 */
	ownLimit?: boolean;
}

export type Admission =
	| { admitted: true; settle: (answer?: PacerAnswer) => void }
	| { admitted: false; heldUntil: Date };

/** Wait for an answer (in flight) rather than for a time. */
const UNTIL_ANSWER = Number.POSITIVE_INFINITY;
/** Waits are slept in steps of at most this, so a cancelled execution stops waiting. */
const WAIT_STEP_MS = 1000;
/** Past a reset, this much later: the service frees the window at the reset, not before. */
const RESET_MARGIN_MS = 100;

/**
 * One pace for one credential, shared by every request in the process that uses it.
 *
 * The first request goes ahead alone, to find out whether the service sends rate-limit headers.
 * With headers it keeps to what the service last said: the window is the one the latest admitted
 * request saw (answers arrive out of order), every request admitted after that one counts against
 * its `Remaining` (answered or not, with its own limit or not), a spent window holds requests back
 * until its reset, and once the reset has passed one request goes ahead alone to find out how much
 * the window freed.
 * A window past its reset is forgotten when an answer brings no new one. While no window is fresh
 * it keeps to the plan's rate, if there is one, counting every request until a minute after its
 * answer (the service counted it before that). A 429 holds every request back until the reset it
 * names.
 */
export class RequestPacer {
	readonly #minuteMs: number;
	/** The plan's requests per minute; undefined: no plan. */
	#plan: number | undefined;
	#inFlight = 0;
	/** An answer has come back: a service without rate-limit headers is not paced by them. */
	#answered = false;
	/**
	 * What the service last said of the credential's window, in the answer to the `sent`-th
	 * request; undefined: it said nothing, or that window has reset and a later answer said nothing.
	 */
	#window: { remaining: number; resetAt: number; sent: number } | undefined;
	/** Requests admitted so far: a request admitted later reached the service later. */
	#sent = 0;
	/** When answered requests leave the plan's window, oldest first. */
	#planExpiries: number[] = [];
	#blockedUntil = 0;
	#wakers = new Set<() => void>();

	/** `minuteMs`: the length of the plan's minute, shorter only for a time-scaled simulation. */
	constructor(minuteMs = 60_000) {
		this.#minuteMs = minuteMs;
	}

	/** The plan's requests per minute; rate-limit headers win over it. */
	setPlan(plan: number | undefined): void {
		this.#plan = plan;
	}

	/**
	 * Waits until a request may be sent and counts it as in flight, or, when the wait would be
	 * longer than `maxWaitMs`, returns when the window frees instead. `settle` must be called
	 * exactly once, with the answer (or without, when none came).
	 */
	async admit(maxWaitMs: number, isCancelled: () => boolean = () => false): Promise<Admission> {
		for (;;) {
			const now = Date.now();
			const delay = this.delayMs(now);
			if (delay <= 0 || isCancelled()) {
				this.#inFlight++;
				const sent = ++this.#sent;
				return { admitted: true, settle: (answer) => this.#settle(answer, sent) };
			}
			if (delay !== UNTIL_ANSWER && delay > maxWaitMs)
				return { admitted: false, heldUntil: new Date(now + delay) };
			await this.#nextChange(Math.min(delay, WAIT_STEP_MS));
		}
	}

	/** Milliseconds until a request may go (0: now; Infinity: when an answer comes back). */
	delayMs(now: number): number {
		if (now < this.#blockedUntil) return this.#blockedUntil - now;
		// Until the first answer it is unknown whether the service sends rate-limit headers.
		if (!this.#answered) return this.#inFlight === 0 ? 0 : UNTIL_ANSWER;
		const window = this.#window;
		if (window && now < window.resetAt + RESET_MARGIN_MS) {
			const freeAt = window.resetAt + RESET_MARGIN_MS;
			return window.remaining - (this.#sent - window.sent) > 0 ? 0 : freeAt - now;
		}
		const planDelay = this.#plan === undefined ? 0 : this.#planDelay(now, this.#plan);
		// The window has reset: at least one request is free again; the next answer tells how many.
		const probeDelay = window && window.remaining + 1 - this.#inFlight <= 0 ? UNTIL_ANSWER : 0;
		return Math.max(planDelay, probeDelay);
	}

	#planDelay(now: number, plan: number): number {
		while (this.#planExpiries.length > 0 && this.#planExpiries[0] <= now)
			this.#planExpiries.shift();
		if (this.#planExpiries.length + this.#inFlight < plan) return 0;
		return this.#planExpiries.length > 0 ? this.#planExpiries[0] - now : UNTIL_ANSWER;
	}

	/** `sent`: the request's place in the order of admission. */
	#settle(answer: PacerAnswer | undefined, sent: number): void {
		const now = Date.now();
		this.#inFlight--;
		if (answer) this.#learn(answer, sent, now);
		if (this.#plan !== undefined) this.#planExpiries.push(now + this.#minuteMs);
		// Each waker removes itself.
		for (const wake of this.#wakers) wake();
	}

	#learn({ status, rateLimit, ownLimit }: PacerAnswer, sent: number, now: number): void {
		this.#answered = true;
		// An invalid date (NaN) is no reset: it must not switch blocking off.
		const resetMs = rateLimit.resetAt?.getTime();
		const resetAt = resetMs !== undefined && Number.isFinite(resetMs) ? resetMs : undefined;
		// A 429 of a request's own limit may be the credential's too when its reset is within a minute.
		if (status === 429 && resetAt !== undefined && (!ownLimit || resetAt - now <= this.#minuteMs))
			this.#blockedUntil = Math.max(this.#blockedUntil, resetAt);
		const current = this.#window;
		if (ownLimit || rateLimit.remaining === undefined || resetAt === undefined) {
			// A window past its reset no longer describes the service.
			if (current && now >= current.resetAt && !ownLimit) this.#window = undefined;
			return;
		}
		// The window the latest admitted request saw: an answer's reset does not tell (it may be read
		// in another unit, or after another latency).
		if (!current || sent > current.sent) {
			const remaining = status === 429 ? 0 : Math.max(0, rateLimit.remaining);
			this.#window = { remaining, resetAt, sent };
		}
	}

	#nextChange(ms: number): Promise<void> {
		return new Promise((resolve) => {
			const wake = (): void => {
				this.#wakers.delete(wake);
				resolve();
			};
			this.#wakers.add(wake);
			void sleep(ms).then(wake);
		});
	}
}
