/**
 * Vitest for test/mutation.pollTriggers.stryker.mjs: the projects and setup of
 * test/mutation.vitest.config.mts, narrowed to the tests that reach the poll triggers' n8n glue
 * (pollFunctions.ts and the two poll trigger nodes).
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

const projects = (mutation.test?.projects ?? [])
	.filter(
		(project): project is TestProjectInlineConfiguration =>
			typeof project === 'object' && 'test' in project,
	)
	.map((project) => {
		const name = String(project.test?.name);
		return { ...project, test: { ...project.test, include: TESTS[name] ?? [] } };
	});

export default defineConfig({ ...mutation, test: { ...mutation.test, projects } });
