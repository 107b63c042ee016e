/**
 * Vitest for mutating the poll triggers' n8n glue (pollFunctions.ts and the two poll trigger
 * nodes), narrowed to the tests that reach it; the projects and setup of
 * test/mutation.vitest.config.mts; run by
 * test/mutation.pollTriggers.stryker.mjs.
 */
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

import mutation from './mutation.vitest.config.mts';

const TESTS: Record<string, string[]> = {
	unit: ['test/unit/shared/polling/**/*.test.mts'],
	integration: [
		'test/integration/PerformanceServicePollTrigger/**/*.test.mts',
		'test/integration/SecurityServiceTrigger/**/*.test.mts',
		'test/integration/SecurityServiceWebhookTrigger/**/*.test.mts',
	],
};

const projects = (mutation.test?.projects ?? []).map((project) => {
	const { test } = project as TestProjectInlineConfiguration;
	return { ...project, test: { ...test, include: TESTS[test?.name ?? ''] ?? [] } };
});

export default defineConfig({ ...mutation, test: { ...mutation.test, projects } });
