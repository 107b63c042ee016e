/**
 * Vitest for `npm run mutate` (stryker.config.mjs): the unit and integration projects of
 * vitest.config.mts, without the tests of the local tooling (setup, release, import graph), which
 * reach no node code. No benchmarks, no end-to-end suites that install n8n.
 */
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

import base from '../vitest.config.mts';

const MUTATION_PROJECTS = ['unit', 'integration'];
const TOOLING_TESTS = [
	'test/unit/setup/**',
	'test/unit/release.test.mts',
	'test/unit/importGraph.test.mts',
	'test/integration/setup*.test.mts',
];

const projects = (base.test?.projects ?? [])
	.filter(
		(project): project is TestProjectInlineConfiguration =>
			typeof project === 'object' &&
			'test' in project &&
			MUTATION_PROJECTS.includes(String(project.test?.name)),
	)
	.map((project) => ({
		...project,
		test: { ...project.test, exclude: [...configDefaults.exclude, ...TOOLING_TESTS] },
	}));

export default defineConfig({ ...base, test: { ...base.test, projects } });
