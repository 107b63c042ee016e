/**
 * fast-check settings for the property and model-based tests. `npm test` runs each with a fixed
 * seed and the number of runs its test gives. A longer run with a random seed:
 *
 *   PROPERTY_SEED=random PROPERTY_RUNS=2000 npx vitest run --project unit --project integration <files>
 *
 * `PROPERTY_SEED=<number>` replays a run; a failure prints its seed, its path and the shrunk
 * counterexample (fast-check's report), and `PROPERTY_RUNS` multiplies nothing: it replaces `runs`.
 */
import type { Parameters } from 'fast-check';

const FIXED_SEED = 20_261_128;

export function propertyRuns<T>(runs: number): Parameters<T> {
	const seedText = process.env.PROPERTY_SEED;
	const seed =
		seedText === 'random'
			? Math.floor(Math.random() * 2 ** 31)
			: seedText !== undefined && seedText !== ''
				? Number(seedText)
				: FIXED_SEED;
	const given = Number(process.env.PROPERTY_RUNS);
	return {
		seed,
		numRuns: Number.isSafeInteger(given) && given > 0 ? given : runs,
		verbose: 1,
	};
}
