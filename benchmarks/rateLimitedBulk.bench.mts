import type { INodeParameters } from 'n8n-workflow';
import { afterAll, beforeAll, bench, describe } from 'vitest';

import { startSandbox, type Sandbox } from '../test/support/sandbox/index.mts';
import { forgetPacers } from '../test/support/harness/pacers.mts';
import {
	packageBulkNode,
	printTable,
	runBulk,
	seconds,
	useHttpRequestNode,
	type BulkResult,
} from './bulkRuns.mts';
import { httpRequestNode } from './n8nHttpRequestNode.mts';

/**
 * Rate-limited bulk: N = 3 × L requests against a limit of L per window W (the sandbox's
 * per-token sliding window, time-scaled so that W lasts 30 s, resets in epoch seconds as by
 * default). The ideal is (N / L − 1) × W: the first L at once, the next L one window later, …
 */
const LIMIT = 30;
const WINDOW_MS = 30_000;
const REQUESTS = 3 * LIMIT;
const IDEAL_MS = (REQUESTS / LIMIT - 1) * WINDOW_MS;
const ONCE = { iterations: 1, time: 0, warmupIterations: 0, warmupTime: 0 };

let sandbox: Sandbox;
const results = new Map<string, BulkResult>();

const health = () =>
	packageBulkNode('performanceService', { resource: 'system', operation: 'getHealth' });
const httpHealth = (settings: Parameters<typeof httpRequestNode>[3], options?: INodeParameters) => {
	const node = httpRequestNode(
		'HTTP Request',
		`${sandbox.performanceUrl}/system`,
		'performanceServiceApi',
		settings,
	);
	if (options) node.parameters.options = options;
	return node;
};

async function measure(name: string, run: () => Promise<BulkResult>): Promise<void> {
	sandbox.reset();
	sandbox.setOptions({ limits: { requestsPerMinute: LIMIT } });
	forgetPacers();
	results.set(name, await run());
}

beforeAll(async () => {
	useHttpRequestNode();
	sandbox = await startSandbox({ quiet: true, timeScale: 60_000 / WINDOW_MS });
});

afterAll(async () => {
	await sandbox.close();
	const rows = [...results].map(([name, result]) => {
		const ratio = result.ms / IDEAL_MS;
		const share429 = result.answered429 / result.requests;
		const ours = name.startsWith('Performance Service');
		const met = ratio <= 1.1 && result.failed === 0 && share429 <= 0.01;
		return [
			name,
			seconds(result.ms),
			`${ratio.toFixed(3)}x`,
			result.failed,
			`${result.answered429} of ${result.requests}`,
			ours ? (met ? 'yes' : 'NO') : '',
		];
	});
	printTable(
		`Rate-limited bulk: ${REQUESTS} requests, limit ${LIMIT} per ${WINDOW_MS / 1000} s window; ideal (N/L − 1)·W = ${seconds(IDEAL_MS)}`,
		[
			'run',
			'wall time',
			'of ideal (goal ≤ 1.10x)',
			'failed items (goal 0)',
			'answered 429 (goal ≤ 1%)',
			'met',
		],
		rows,
	);
});

describe(`${REQUESTS} requests against ${LIMIT} per ${WINDOW_MS / 1000} s`, () => {
	bench(
		'Performance Service, default',
		async () =>
			await measure('Performance Service, default', () => runBulk(sandbox, health(), REQUESTS)),
		ONCE,
	);
	bench(
		'n8n HTTP Request node, Retry On Fail (3 tries, 1 s apart)',
		async () =>
			await measure('n8n HTTP Request node, Retry On Fail (3 tries, 1 s apart)', () =>
				runBulk(
					sandbox,
					httpHealth({ retryOnFail: true, maxTries: 3, waitBetweenTries: 1000 }),
					REQUESTS,
				),
			),
		ONCE,
	);
	bench(
		'n8n HTTP Request node, batching tuned to the limit',
		async () =>
			await measure(
				`n8n HTTP Request node, batches of ${LIMIT} every ${WINDOW_MS / 1000} s (tuned by hand)`,
				() =>
					runBulk(
						sandbox,
						httpHealth({}, { batching: { batch: { batchSize: LIMIT, batchInterval: WINDOW_MS } } }),
						REQUESTS,
					),
			),
		ONCE,
	);
});
