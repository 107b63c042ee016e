// A quick mutation run over the poll engine with its unit tests only (about 52 tests instead of the
// whole suite): `npx stryker run test/polling.stryker.config.mjs --concurrency 1`.
import base from '../stryker.config.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
	...base,
	vitest: { ...base.vitest, configFile: 'test/polling.mutation.vitest.config.mts' },
	mutate: [
		'nodes/shared/polling/newRecords.ts',
		'nodes/shared/polling/listRecords.ts',
		'nodes/shared/polling/statusChanges.ts',
	],
	reporters: ['clear-text', 'progress'],
	dryRunTimeoutMinutes: 5,
};
