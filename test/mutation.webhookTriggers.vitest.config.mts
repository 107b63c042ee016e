/**
 * Vitest for mutating the webhook triggers alone (test/stryker.webhookTriggers.config.mjs): the
 * projects of test/mutation.vitest.config.mts, narrowed to the tests of both webhook triggers and
 * of their shared n8n contract, so that Stryker's first run takes about a minute instead of the
 * whole set's four.
 */
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

import mutation from './mutation.vitest.config.mts';

const WEBHOOK_TRIGGER_TESTS: Record<string, string[]> = {
	unit: [
		'test/unit/PerformanceService/trigger/**/*.test.mts',
		'test/unit/shared/webhooks/**/*.test.mts',
	],
	integration: [
		'test/integration/PerformanceServiceTrigger/**/*.test.mts',
		'test/integration/SecurityServiceWebhookTrigger/**/*.test.mts',
	],
};

const projects = (mutation.test?.projects as TestProjectInlineConfiguration[]).map((project) => ({
	...project,
	test: { ...project.test, include: WEBHOOK_TRIGGER_TESTS[String(project.test?.name)] },
}));

export default defineConfig({ ...mutation, test: { ...mutation.test, projects } });
