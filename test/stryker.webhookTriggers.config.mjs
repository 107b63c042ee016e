// Stryker over the webhook triggers with only their tests (docs/testing.md, "Mutation testing"):
// `npx stryker run test/stryker.webhookTriggers.config.mjs --mutate nodes/PerformanceService/trigger/delivery.ts`
import base from '../stryker.config.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
	...base,
	vitest: { ...base.vitest, configFile: 'test/mutation.webhookTriggers.vitest.config.mts' },
	mutate: [
		'nodes/PerformanceService/PerformanceServiceTrigger.node.ts',
		'nodes/PerformanceService/trigger/**/*.ts',
		'nodes/shared/webhooks/**/*.ts',
		'nodes/SecurityService/SecurityServiceWebhookTrigger.node.ts',
		'nodes/SecurityService/webhookTrigger/**/*.ts',
	],
};
