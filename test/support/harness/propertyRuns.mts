/**
 * fast-check settings for the property and model-based tests. `npm test` runs each with a fixed
 * seed and the number of runs its test gives. A longer run with a random seed:
 *
 *   PROPERTY_SEED=random PROPERTY_RUNS=300 npx vitest run --project unit test/unit/shared/polling/
 *
 * `PROPERTY_SEED=<number>` replays a run; a failure prints its seed, its path and the shrunk
 * counterexample (fast-check's report). `PROPERTY_RUNS` replaces each test's `runs`; a test
 * whose time limit is `propertyTimeout(runs)` gets that limit grown in the same proportion (300
 * runs of a test that runs 4 in `npm test`: 75 times its limit), so a slow property is not cut off.
 */
import type { Parameters } from 'fast-check';

const FIXED_SEED = 20_261_128;

/** The runs of a test that runs `runs` in `npm test`: PROPERTY_RUNS when given. */
function runsOf(runs: number): number {
	const given = Number(process.env.PROPERTY_RUNS);
	return Number.isSafeInteger(given) && given > 0 ? given : runs;
}

export function propertyRuns<T>(runs: number): Parameters<T> {
	const seedText = process.env.PROPERTY_SEED;
	const seed =
		seedText === 'random'
			? Math.floor(Math.random() * 2 ** 31)
			: seedText !== undefined && seedText !== ''
				? Number(seedText)
				: FIXED_SEED;
	return { seed, numRuns: runsOf(runs), verbose: 1 };
}

/**
 * The time limit (ms) of a test that runs `runs` histories in `npm test` within `limitMs` (the
 * unit project's), times the runs PROPERTY_RUNS asks for over `runs` when that is more.
 */
export function propertyTimeout(runs: number, limitMs = 30_000): number {
	return Math.ceil(limitMs * Math.max(1, runsOf(runs) / runs));
}
