import { createRequire } from 'node:module';

import { beforeEach, vi } from 'vitest';

const LEVELS = ['error', 'warn', 'info', 'debug'] as const;

/** Captures what n8n's logger (the node's `this.logger`) receives at every level it writes; returns it as text. */
export function captureLogs(): () => string {
	const fromCore = createRequire(createRequire(import.meta.url).resolve('n8n-core'));
	const { Container } = fromCore('@n8n/di') as { Container: { get: (type: unknown) => unknown } };
	const { Logger } = fromCore('@n8n/backend-common') as { Logger: unknown };
	const logger = Container.get(Logger) as Record<(typeof LEVELS)[number], () => void>;
	// Levels n8n turned off are fixed no-ops (not configurable): nothing of them is written.
	const spies = LEVELS.filter(
		(level) => Object.getOwnPropertyDescriptor(logger, level)?.configurable !== false,
	).map((level) => vi.spyOn(logger, level).mockImplementation(() => undefined));
	beforeEach(() => spies.forEach((spy) => spy.mockClear()));
	return () => JSON.stringify(spies.map((spy) => spy.mock.calls));
}
