/**
 * Vitest for `npm run mutate` (stryker.config.mjs): the unit and integration projects of
 * vitest.config.mts, without the tests of the local tooling (setup, release, import graph), which
 * reach no node code. No benchmarks, no end-to-end suites that install n8n. With MUTATION_SET, only
 * the tests that reach that set's code.
 */
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

import base from '../vitest.config.mts';

const TOOLING_TESTS = [
	'test/unit/setup/**',
	'test/unit/release.test.mts',
	'test/unit/importGraph.test.mts',
	'test/integration/setup*.test.mts',
];

/** The test folders of each named set (stryker.config.mjs holds the code each set mutates). */
const TESTED_BY: Record<string, string[]> = {
	engine: ['test/unit/shared/polling'],
	pollTriggers: [
		'test/unit/shared/polling',
		'test/integration/PerformanceServicePollTrigger',
		'test/integration/SecurityServiceTrigger',
		'test/integration/SecurityServiceWebhookTrigger',
	],
	webhookTriggers: [
		'test/unit/PerformanceService/trigger',
		'test/unit/shared/webhooks',
		'test/unit/SecurityService/webhookTrigger',
		'test/integration/PerformanceServiceTrigger',
		'test/integration/SecurityServiceWebhookTrigger',
	],
};
const set = process.env.MUTATION_SET;

/** The set's test files that belong to a project (`unit`: under test/unit/). */
function testsOf(name: string, project: string): string[] {
	return TESTED_BY[name]
		.filter((folder) => folder.startsWith(`test/${project}/`))
		.map((folder) => `${folder}/**/*.test.mts`);
}

const projects = (base.test?.projects ?? [])
	.filter(
		(project): project is TestProjectInlineConfiguration =>
			typeof project === 'object' &&
			'test' in project &&
			['unit', 'integration'].includes(String(project.test?.name)),
	)
	.map((project) => ({
		...project,
		test: {
			...project.test,
			...(set && { include: testsOf(set, String(project.test?.name)) }),
			exclude: [...configDefaults.exclude, ...TOOLING_TESTS],
			setupFiles: ['test/mutation.setup.mts'],
		},
	}));

export default defineConfig({ ...base, test: { ...base.test, projects } });
