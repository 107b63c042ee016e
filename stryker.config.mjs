// `npm run mutate`: StrykerJS mutation testing of the trigger code (not run in CI). A named set runs
// its code against only the tests that reach it: `MUTATION_SET=engine npm run mutate`. Narrow further
// with `npm run mutate -- --mutate 'nodes/shared/polling/listRecords.ts'`. Details: docs/testing.md.
import os from 'node:os';
import path from 'node:path';

/** The code each named set mutates; test/mutation.vitest.config.mts holds the tests of each set. */
const MUTATED = {
	engine: [
		'nodes/shared/polling/newRecords.ts',
		'nodes/shared/polling/listRecords.ts',
		'nodes/shared/polling/statusChanges.ts',
	],
	pollTriggers: [
		'nodes/shared/polling/pollFunctions.ts',
		'nodes/PerformanceService/PerformanceServicePollTrigger.node.ts',
		'nodes/SecurityService/SecurityServiceTrigger.node.ts',
	],
	webhookTriggers: [
		'nodes/PerformanceService/PerformanceServiceTrigger.node.ts',
		'nodes/PerformanceService/trigger/**/*.ts',
		'nodes/shared/webhooks/**/*.ts',
		'nodes/SecurityService/SecurityServiceWebhookTrigger.node.ts',
		'nodes/SecurityService/webhookTrigger/**/*.ts',
	],
};
const set = process.env.MUTATION_SET;
if (set && !MUTATED[set])
	throw new Error(`MUTATION_SET is one of: ${Object.keys(MUTATED).join(', ')}`);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
	testRunner: 'vitest',
	// related: false: the integration tests load the nodes the way n8n does (a dynamic import of each
	// file package.json registers), which Vitest's import graph does not follow. The first run is the
	// whole suite; each mutant then runs only the tests that reached it there.
	// pool: Vitest's own default (child processes); in Stryker's default, worker threads, a test
	// that loads n8n-core crashes the runner (SIGSEGV).
	vitest: { configFile: 'test/mutation.vitest.config.mts', related: false, pool: 'forks' },
	coverageAnalysis: 'perTest',
	// A mutant in code that runs when a module loads (the node descriptions) would rerun every test.
	ignoreStatic: true,
	concurrency: 2,
	// The first run is the whole unit and integration set (4 min on an idle 2-core machine); Stryker's
	// default of 5 minutes ran out on a busy one.
	dryRunTimeoutMinutes: 20,
	mutate: set ? MUTATED[set] : Object.values(MUTATED).flat(),
	reporters: ['clear-text', 'html', 'progress'],
	htmlReporter: { fileName: 'reports/mutation/index.html' },
	// The copies of the package Stryker tests mutants in live outside the clone: inside it,
	// `n8n-node lint` (whose eslint.config.mjs must stay n8n's) would lint them.
	tempDirName: path.join(os.tmpdir(), 'n8n-nodes-site-performance-security-stryker'),
	cleanTempDir: 'always',
	ignorePatterns: ['dist', '.n8n-local', 'test-artifacts', 'coverage', '*.tgz'],
};
