import { createRequire } from 'node:module';
import path from 'node:path';

import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
	// n8n-core loads n8n-workflow's CommonJS build; the nodes under test must share its classes.
	resolve: { alias: { 'n8n-workflow': require.resolve('n8n-workflow') } },
	test: {
		// Console output of passing tests is dropped (the nodes under test and the sandbox log the
		// failures tests provoke); a failing test still shows its own. Vitest reads this for the whole
		// run, not per project.
		silent: 'passed-only',
		// n8n-core's InstanceSettings writes <N8N_USER_FOLDER or HOME>/.n8n/config (an encryption key)
		// when the harness first uses it: keep it in the clone's git-ignored .n8n-local/, out of HOME.
		env: { N8N_USER_FOLDER: path.join(import.meta.dirname, '.n8n-local', 'vitest') },
		projects: [
			{
				extends: true,
				test: {
					name: 'unit',
					include: ['test/unit/**/*.test.mts'],
					environment: 'node',
					// Property tests run thousands of cases: room for a loaded 2-core machine, not a timing goal.
					testTimeout: 30_000,
				},
			},
			{
				extends: true,
				test: {
					name: 'integration',
					include: ['test/integration/**/*.test.mts'],
					environment: 'node',
					testTimeout: 60_000,
					hookTimeout: 60_000,
				},
			},
			{
				extends: true,
				test: {
					// `npm run bench`: the in-process benchmarks (benchmarks/*.bench.mts); no tests. The script passes
					// --silent=false: the benchmarks print their tables, which 'passed-only' would drop.
					name: 'bench',
					include: [],
					benchmark: { include: ['benchmarks/**/*.bench.mts'] },
					environment: 'node',
					hookTimeout: 60_000,
				},
			},
			{
				extends: true,
				test: {
					name: 'e2e',
					include: ['test/e2e/**/*.test.mts'],
					// Boots the sandbox and n8n once for all e2e files (test/e2e/globalSetup.mts).
					globalSetup: ['test/e2e/globalSetup.mts'],
					environment: 'node',
					testTimeout: 600_000,
					hookTimeout: 1_200_000,
					fileParallelism: false,
				},
			},
			{
				extends: true,
				test: {
					// n8n 2.x in queue mode: Postgres, Redis, main, worker, two webhook processes (test/e2e-queue/cluster.mts).
					// One file per suite; the two suites can run side by side (`npm run test:queue-and-n8n1`).
					name: 'e2e-queue',
					include: ['test/e2e-queue/**/*.test.mts'],
					environment: 'node',
					testTimeout: 600_000,
					hookTimeout: 1_200_000,
				},
			},
			{
				extends: true,
				test: {
					// The newest n8n 1.x on the Node it declares (test/e2e-n8n1/n8n1.test.mts).
					name: 'e2e-n8n1',
					include: ['test/e2e-n8n1/**/*.test.mts'],
					environment: 'node',
					testTimeout: 600_000,
					hookTimeout: 1_200_000,
				},
			},
			{
				extends: true,
				test: {
					// What the trigger assumes of n8n's webhook handling, in each release of N8N_CONTRACT_VERSIONS
					// side by side (test/contract/); globalSetup installs the releases first, one at a time.
					name: 'contract',
					include: ['test/contract/**/*.test.mts'],
					globalSetup: ['test/contract/globalSetup.mts'],
					environment: 'node',
					testTimeout: 900_000,
					hookTimeout: 1_200_000,
				},
			},
		],
	},
});
