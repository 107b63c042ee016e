/** Vitest for test/polling.stryker.config.mjs: the poll engine's unit tests only. */
import { defineConfig } from 'vitest/config';

import base from '../vitest.config.mts';

export default defineConfig({
	...base,
	test: {
		...base.test,
		projects: [
			{
				extends: true,
				test: {
					name: 'unit',
					include: ['test/unit/shared/polling/**/*.test.mts'],
					environment: 'node',
					testTimeout: 30_000,
				},
			},
		],
	},
});
