import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import {
	RequestPacer,
	type Admission,
	type PacerAnswer,
} from '../../../../nodes/shared/pacing/requestPacer.ts';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const MARGIN = 100;

function answer(
	remaining: number | undefined,
	resetAt: number | undefined,
	status = 200,
): PacerAnswer {
	return {
		status,
		rateLimit: {
			limit: 10,
			remaining,
			resetAt: resetAt === undefined ? undefined : new Date(resetAt),
		},
	};
}

type Admitted = Extract<Admission, { admitted: true }>;

async function admitNow(pacer: RequestPacer, maxWaitMs = 65_000): Promise<Admitted> {
	const admission = await pacer.admit(maxWaitMs);
	if (!admission.admitted) throw new Error('expected the request to be admitted');
	return admission;
}

/** Starts `count` admissions and reports which of them were admitted so far. */
function startAdmissions(
	pacer: RequestPacer,
	count: number,
): { admitted: Admitted[]; all: Promise<Admission[]> } {
	const admitted: Admitted[] = [];
	const all = Promise.all(
		Array.from({ length: count }, async () => {
			const admission = await pacer.admit(65_000);
			if (admission.admitted) admitted.push(admission);
			return admission;
		}),
	);
	return { admitted, all };
}

beforeEach(() => {
	vi.useFakeTimers({ now: T0 });
});
afterEach(() => {
	vi.useRealTimers();
});

describe('RequestPacer with rate-limit headers', () => {
	it('sends one request alone while nothing is known, then what Remaining allows', async () => {
		const pacer = new RequestPacer();
		const first = await admitNow(pacer);
		const waiting = startAdmissions(pacer, 5);
		await vi.advanceTimersByTimeAsync(10);
		expect(waiting.admitted).toHaveLength(0);

		first.settle(answer(3, T0 + 10_000));
		await vi.advanceTimersByTimeAsync(0);
		expect(waiting.admitted).toHaveLength(3);
		expect(pacer.delayMs(Date.now())).toBe(T0 + 10_000 + MARGIN - Date.now());
	});

	it('counts requests in flight against Remaining before they are answered', async () => {
		const pacer = new RequestPacer();
		(await admitNow(pacer)).settle(answer(2, T0 + 5_000));
		const a = await admitNow(pacer);
		const b = await admitNow(pacer);
		expect(pacer.delayMs(Date.now())).toBeGreaterThan(0);
		// The service counted the first one: Remaining 1, with one still in flight.
		a.settle(answer(1, T0 + 5_000));
		expect(pacer.delayMs(Date.now())).toBeGreaterThan(0);
		// Each answered request leaves the count: with none in flight, Remaining 1 lets one go.
		b.settle(answer(1, T0 + 5_000));
		expect(pacer.delayMs(Date.now())).toBe(0);
	});

	it('keeps the fewest remaining when answers of one window arrive out of order', async () => {
		const pacer = new RequestPacer();
		(await admitNow(pacer)).settle(answer(5, T0 + 5_000));
		const [a, b] = [await admitNow(pacer), await admitNow(pacer)];
		b.settle(answer(3, T0 + 5_000));
		a.settle(answer(4, T0 + 5_000));
		const admitted = [await admitNow(pacer), await admitNow(pacer), await admitNow(pacer)];
		expect(admitted).toHaveLength(3);
		expect(pacer.delayMs(Date.now())).toBe(5_000 + MARGIN);
	});

	it('holds requests back until the reset, then lets one find out how much the window freed', async () => {
		const pacer = new RequestPacer();
		(await admitNow(pacer)).settle(answer(0, T0 + 2_000));
		const waiting = startAdmissions(pacer, 4);
		await vi.advanceTimersByTimeAsync(2_000);
		expect(waiting.admitted).toHaveLength(0);
		await vi.advanceTimersByTimeAsync(MARGIN + 1_000);
		expect(waiting.admitted).toHaveLength(1);

		waiting.admitted[0].settle(answer(9, T0 + 62_000));
		await vi.advanceTimersByTimeAsync(0);
		expect(waiting.admitted).toHaveLength(4);
	});

	it('does not pace a service that sends no rate-limit headers', async () => {
		const pacer = new RequestPacer();
		(await admitNow(pacer)).settle(answer(undefined, undefined));
		for (let i = 0; i < 20; i++) await admitNow(pacer);
		expect(pacer.delayMs(Date.now())).toBe(0);
	});

	it('holds every request back after a 429 until the reset it names', async () => {
		const pacer = new RequestPacer();
		(await admitNow(pacer)).settle(answer(50, T0 + 60_000));
		const a = await admitNow(pacer);
		a.settle({ status: 429, rateLimit: { resetAt: new Date(T0 + 3_000) } });
		expect(pacer.delayMs(Date.now())).toBe(3_000);
		await vi.advanceTimersByTimeAsync(3_000);
		expect(pacer.delayMs(Date.now())).toBe(0);
	});

	it('answers with the reset instead of waiting when the window frees later than the caller waits', async () => {
		const pacer = new RequestPacer();
		(await admitNow(pacer)).settle(answer(0, T0 + 3_600_000));
		const admission = await pacer.admit(65_000);
		expect(admission).toEqual({ admitted: false, heldUntil: new Date(T0 + 3_600_000 + MARGIN) });
		// A request held back is not in flight: once the window resets, the next one goes at once.
		await vi.advanceTimersByTimeAsync(3_600_000 + MARGIN);
		expect(pacer.delayMs(Date.now())).toBe(0);
	});

	it('does not take the headers of a request with a limit of its own as the credential window', async () => {
		const pacer = new RequestPacer();
		(await admitNow(pacer)).settle(answer(500, T0 + 60_000));
		(await admitNow(pacer)).settle({ ...answer(0, T0 + 3_600_000, 429), ownLimit: true });
		expect(pacer.delayMs(Date.now())).toBe(0);
	});

	it('stops waiting when the execution is cancelled', async () => {
		const pacer = new RequestPacer();
		(await admitNow(pacer)).settle(answer(0, T0 + 30_000));
		let cancelled = false;
		const admission = pacer.admit(65_000, () => cancelled);
		await vi.advanceTimersByTimeAsync(2_000);
		cancelled = true;
		await vi.advanceTimersByTimeAsync(1_000);
		expect((await admission).admitted).toBe(true);
	});
});

describe('RequestPacer with a plan', () => {
	/** 3 requests a minute, the minute lasting 10 s. */
	function planPacer(): RequestPacer {
		const pacer = new RequestPacer(10_000);
		pacer.setPlan(3);
		return pacer;
	}

	it('keeps to the plan rate, counting each request until a window after its answer', async () => {
		const pacer = planPacer();
		const waiting = startAdmissions(pacer, 7);
		await vi.advanceTimersByTimeAsync(0);
		// The first request alone: the service might send rate-limit headers.
		expect(waiting.admitted).toHaveLength(1);
		waiting.admitted[0].settle(answer(undefined, undefined));
		await vi.advanceTimersByTimeAsync(0);
		expect(waiting.admitted).toHaveLength(3);

		await vi.advanceTimersByTimeAsync(500);
		for (const admission of waiting.admitted.slice(1))
			admission.settle(answer(undefined, undefined));
		// The first one leaves the window 10 s after its answer, the other two 0.5 s later.
		await vi.advanceTimersByTimeAsync(9_499);
		expect(waiting.admitted).toHaveLength(3);
		await vi.advanceTimersByTimeAsync(1);
		expect(waiting.admitted).toHaveLength(4);
		await vi.advanceTimersByTimeAsync(500);
		expect(waiting.admitted).toHaveLength(6);
	});

	it('lets rate-limit headers win over the plan once the service sends them', async () => {
		const pacer = planPacer();
		(await admitNow(pacer)).settle(answer(8, T0 + 60_000));
		const admitted = [];
		for (let i = 0; i < 8; i++) admitted.push(await admitNow(pacer));
		expect(admitted).toHaveLength(8);
		expect(pacer.delayMs(Date.now())).toBeGreaterThan(0);
	});
});

describe('RequestPacer under any answer (issue 38)', () => {
	it('counts a request with a limit of its own in the credential window (case 2)', async () => {
		const pacer = new RequestPacer();
		(await admitNow(pacer)).settle(answer(2, T0 + 5_000));
		(await admitNow(pacer)).settle({ ...answer(19, T0 + 3_600_000), ownLimit: true });
		// Remaining 2, one of them spent by the request with its own limit: one more may go.
		await admitNow(pacer);
		expect(pacer.delayMs(Date.now())).toBe(5_000 + MARGIN);
	});

	it('holds every request back after a 429 on a request with its own limit whose reset is within a minute (case 2)', async () => {
		const pacer = new RequestPacer();
		(await admitNow(pacer)).settle(answer(50, T0 + 60_000));
		(await admitNow(pacer)).settle({ ...answer(0, T0 + 3_000, 429), ownLimit: true });
		expect(pacer.delayMs(Date.now())).toBe(3_000);
	});

	it('forgets a window past its reset when an answer brings none, and keeps to the plan again (case 3)', async () => {
		const pacer = new RequestPacer(10_000);
		pacer.setPlan(3);
		// One 429 with X-RateLimit-Remaining: 0, from a proxy or another limit.
		(await admitNow(pacer)).settle(answer(0, T0 + 1_000, 429));
		await vi.advanceTimersByTimeAsync(1_000 + MARGIN);
		let sent = 0;
		for (let i = 0; i < 20; i++) {
			const admission = await pacer.admit(0);
			if (!admission.admitted) break;
			admission.settle(answer(undefined, undefined));
			sent++;
		}
		// The 429 counted in the plan minute: two more in it, not one after another without end.
		expect(sent).toBe(2);
	});

	it('does not let an invalid reset date switch blocking off (case 7)', async () => {
		const pacer = new RequestPacer();
		(await admitNow(pacer)).settle({ status: 429, rateLimit: { resetAt: new Date(Number.NaN) } });
		expect(pacer.delayMs(Date.now())).toBe(0);
		(await admitNow(pacer)).settle({ status: 429, rateLimit: { resetAt: new Date(T0 + 3_000) } });
		expect(pacer.delayMs(Date.now())).toBe(3_000);
	});

	// Counterexamples of the model test (paceModel.test.mts).
	it('keeps the window a later request saw, even when an earlier answer reads a later reset', async () => {
		const pacer = new RequestPacer();
		// A reset in seconds until, rounded up and read after the latency: 1 ms later than it is.
		(await admitNow(pacer)).settle(answer(1, T0 + 10_001));
		// The next request saw the window spent; its reset, in epoch nanoseconds, is exact.
		(await admitNow(pacer)).settle(answer(0, T0 + 10_000));
		expect(pacer.delayMs(Date.now())).toBe(10_000 + MARGIN);
	});

	it('counts a request answered without headers against a window an earlier request brings later', async () => {
		const pacer = new RequestPacer();
		(await admitNow(pacer)).settle(answer(2, T0 + 10_000));
		const [b, c] = [await admitNow(pacer), await admitNow(pacer)];
		// c was counted after b; its answer says nothing of the window, and comes first.
		c.settle(answer(undefined, undefined));
		b.settle(answer(1, T0 + 10_000));
		expect(pacer.delayMs(Date.now())).toBe(10_000 + MARGIN);
	});
});
