// Stryker over the poll triggers' n8n glue with the tests that reach it (docs/testing.md):
// `npm run mutate -- test/mutation.pollTriggers.stryker.mjs --concurrency 1`.
import base from '../stryker.config.mjs';

export default {
	...base,
	vitest: { ...base.vitest, configFile: 'test/mutation.pollTriggers.vitest.config.mts' },
	mutate: [
		'nodes/shared/polling/pollFunctions.ts',
		'nodes/PerformanceService/PerformanceServicePollTrigger.node.ts',
		'nodes/SecurityService/SecurityServiceTrigger.node.ts',
	],
};
