import { afterAll, beforeAll, bench, describe } from 'vitest';

import { startSandbox, type Sandbox } from '../test/support/sandbox/index.mts';
import { byId } from '../test/support/harness/runNode.mts';
import { forgetPacers } from '../test/support/harness/pacers.mts';
import { DEFAULT_PARALLEL_REQUESTS } from '../nodes/shared/actions/parallelItems.ts';
import {
	median,
	packageBulkNode,
	printTable,
	runBulk,
	seconds,
	useHttpRequestNode,
	type BulkResult,
} from './bulkRuns.mts';
import { httpRequestNode } from './n8nHttpRequestNode.mts';

/**
 * Latency-bound bulk: 100 items of Site → Get against a sandbox answering after 50 ms, through
 * n8n-core's engine. The package's node with its default parallelism and one at a time, and
 * n8n's HTTP Request node (same engine, same credential type) on the same 100 requests.
 */
const ITEMS = 100;
const LATENCY_MS = 50;
/** Runs of the default and of the HTTP Request node, taken in turns so that load on the machine hits both alike. */
const PAIRS = 11;

let sandbox: Sandbox;
const timings = {
	parallel: [] as number[],
	oneAtATime: [] as number[],
	httpRequest: [] as number[],
};

function siteGet(parallelRequests?: number) {
	return packageBulkNode('performanceService', {
		resource: 'site',
		operation: 'get',
		siteId: byId('site_1'),
		...(parallelRequests === undefined ? {} : { options: { parallelRequests } }),
	});
}

function httpGet() {
	return httpRequestNode(
		'HTTP Request',
		`${sandbox.performanceUrl}/sites/site_1`,
		'performanceServiceApi',
	);
}

async function measured(into: number[], run: () => Promise<BulkResult>): Promise<void> {
	const result = await run();
	if (result.failed > 0 || result.succeeded !== ITEMS) {
		throw new Error(
			`expected ${ITEMS} results, got ${result.succeeded} and ${result.failed} failed`,
		);
	}
	into.push(result.ms);
}

beforeAll(async () => {
	useHttpRequestNode();
	forgetPacers();
	sandbox = await startSandbox({
		quiet: true,
		latencyMs: LATENCY_MS,
		limits: { requestsPerMinute: 1_000_000 },
	});
	// Warm-up (module loading, connections, the credential's first request), not measured.
	await measured([], () => runBulk(sandbox, siteGet(), ITEMS));
	await measured([], () => runBulk(sandbox, httpGet(), ITEMS));
	for (let pair = 0; pair < PAIRS; pair++) {
		await measured(timings.parallel, () => runBulk(sandbox, siteGet(), ITEMS));
		await measured(timings.httpRequest, () => runBulk(sandbox, httpGet(), ITEMS));
	}
	await measured(timings.oneAtATime, () => runBulk(sandbox, siteGet(1), ITEMS));
});

afterAll(async () => {
	await sandbox.close();
	const parallel = median(timings.parallel);
	const oneAtATime = median(timings.oneAtATime);
	const httpRequest = median(timings.httpRequest);
	const speedup = oneAtATime / parallel;
	const againstHttp = parallel / httpRequest;
	printTable(
		`Latency-bound bulk: ${ITEMS} items of Site → Get at ${LATENCY_MS} ms latency (median wall time of the execution, ${PAIRS} runs in turns)`,
		['run', 'wall time', 'ratio', 'goal', 'met'],
		[
			[
				`Performance Service, default (${DEFAULT_PARALLEL_REQUESTS} parallel requests)`,
				seconds(parallel),
				'1',
				'',
				'',
			],
			[
				'Performance Service, Parallel Requests = 1',
				seconds(oneAtATime),
				`${speedup.toFixed(1)}x slower`,
				'≥ 8x',
				speedup >= 8 ? 'yes' : 'NO',
			],
			[
				'n8n HTTP Request node 4.2 (n8n 2.41.1)',
				seconds(httpRequest),
				`default takes ${againstHttp.toFixed(2)}x its time`,
				'≤ 1.5x',
				againstHttp <= 1.5 ? 'yes' : 'NO',
			],
		],
	);
});

/** vitest's own statistics of the same runs (the table above is computed from the runs taken in turns). */
describe(`${ITEMS} items of Site → Get at ${LATENCY_MS} ms latency`, () => {
	const options = { iterations: 3, time: 0, warmupIterations: 0, warmupTime: 0 };
	bench(
		'Performance Service, default parallel requests',
		async () => await measured([], () => runBulk(sandbox, siteGet(), ITEMS)),
		options,
	);
	bench(
		'n8n HTTP Request node',
		async () => await measured([], () => runBulk(sandbox, httpGet(), ITEMS)),
		options,
	);
});
