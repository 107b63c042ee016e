import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
	parallelRequestsOf,
	runItemsInParallel,
} from '../../../../nodes/shared/actions/parallelItems.ts';

/** The README: Parallel Requests, default 100, at most 500. */
const DEFAULT_PARALLEL_REQUESTS = 100;

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('runItemsInParallel', () => {
	it('never runs more than the bound at once, and reports outcomes in item order', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.integer({ min: 0, max: 40 }),
				fc.integer({ min: 1, max: 12 }),
				fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 40, maxLength: 40 }),
				async (count, parallel, delays) => {
					let running = 0;
					let peak = 0;
					const started: number[] = [];
					const outcomes = await runItemsInParallel(
						count,
						parallel,
						async (index) => {
							started.push(index);
							running++;
							peak = Math.max(peak, running);
							for (let i = 0; i < delays[index]; i++) await tick();
							running--;
							return index * 10;
						},
						true,
					);
					expect(peak).toBeLessThanOrEqual(parallel);
					expect(started).toEqual(Array.from({ length: count }, (_, index) => index));
					expect(outcomes).toEqual(started.map((index) => ({ ok: true, value: index * 10 })));
				},
			),
			{ numRuns: 60 },
		);
	});

	it('keeps every item running when failures are kept (Continue On Fail)', async () => {
		const outcomes = await runItemsInParallel(
			6,
			3,
			async (index) => {
				await tick();
				if (index % 2 === 1) throw new Error(`item ${index}`);
				return index;
			},
			false,
		);
		expect(
			outcomes.map((outcome) => (outcome?.ok ? outcome.value : (outcome?.error as Error).message)),
		).toEqual([0, 'item 1', 2, 'item 3', 4, 'item 5']);
	});

	it('starts no further item after a failure when it stops on errors', async () => {
		const started: number[] = [];
		const outcomes = await runItemsInParallel(
			10,
			2,
			async (index) => {
				started.push(index);
				await tick();
				if (index === 2) throw new Error('item 2');
				return index;
			},
			true,
		);
		expect(started.length).toBeLessThan(10);
		expect(outcomes[2]).toEqual({ ok: false, error: new Error('item 2') });
		expect(outcomes.slice(0, 2)).toEqual([
			{ ok: true, value: 0 },
			{ ok: true, value: 1 },
		]);
		expect(outcomes.slice(started.length)).toEqual(new Array(10 - started.length).fill(undefined));
	});

	it('runs one at a time, in order, with a bound of 1', async () => {
		const events: string[] = [];
		await runItemsInParallel(
			3,
			1,
			async (index) => {
				events.push(`start ${index}`);
				await tick();
				events.push(`end ${index}`);
			},
			true,
		);
		expect(events).toEqual(['start 0', 'end 0', 'start 1', 'end 1', 'start 2', 'end 2']);
	});
});

describe('parallelRequestsOf', () => {
	it('reads whole numbers of at least 1 and falls back to the default otherwise', () => {
		expect(parallelRequestsOf(1)).toBe(1);
		expect(parallelRequestsOf(8.7)).toBe(8);
		expect(parallelRequestsOf('12')).toBe(12);
		for (const value of [undefined, null, 0, -3, Number.NaN, 'many', {}]) {
			expect(parallelRequestsOf(value)).toBe(DEFAULT_PARALLEL_REQUESTS);
		}
		expect(parallelRequestsOf(10_000)).toBe(500);
	});
});
