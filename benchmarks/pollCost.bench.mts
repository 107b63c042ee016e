import type { IDataObject } from 'n8n-workflow';
import { afterAll, beforeAll, bench, describe } from 'vitest';

import { runPoll, triggerNode, type PollRun } from '../test/support/harness/runPoll.mts';
import { sandboxCredentials } from '../test/support/harness/sandbox.mts';
import {
	startSandbox,
	type Sandbox,
	type SecurityListOrder,
	type SecurityListShape,
} from '../test/support/sandbox/index.mts';
import { median, printTable, runBulk, useHttpRequestNode } from './bulkRuns.mts';
import { httpRequestNode } from './n8nHttpRequestNode.mts';

/**
 * Poll cost: requests of a Security Service Trigger poll that finds 1 new record, in lists of
 * 100, 1,000 and 10,000 threats (10 a page, the sandbox's default), oldest first and newest first,
 * for each pagination style; beside it, n8n's HTTP Request node reading the same list with its
 * pagination (`next` links), measured in the same run: what every poll cost before. Also the time
 * of such a poll in the longest list.
 */
const SIZES = [100, 1_000, 10_000];
const ORDERS: SecurityListOrder[] = ['oldestFirst', 'newestFirst'];
const SHAPES: SecurityListShape[] = ['pageNumbers', 'nextLinks', 'cursors'];
const PAGE_SIZE = 10;
const SEEDED_THREATS = 27;
const POLLS_MEASURED = 3;

let sandbox: Sandbox;
const rows: Array<Array<string | number>> = [];
const httpRows: Array<Array<string | number>> = [];

/** n8n's HTTP Request node reading the whole list, following the `next` links. */
function httpWholeList() {
	const node = httpRequestNode(
		'HTTP Request',
		`${sandbox.securityUrl}/threats`,
		'securityServiceApi',
	);
	node.parameters.options = {
		pagination: {
			pagination: {
				paginationMode: 'responseContainsNextURL',
				nextURL: '={{ $response.body.next }}',
				paginationCompleteWhen: 'other',
				completeExpression: '={{ !$response.body.next }}',
			},
		},
	};
	return node;
}

function poll(staticData?: IDataObject): Promise<PollRun> {
	return runPoll({
		node: triggerNode(
			'securityServiceTrigger',
			{ event: 'newThreat' },
			'securityServiceApi',
			'Trigger',
		),
		credentials: {
			securityServiceApi: {
				baseUrl: sandbox.securityUrl,
				apiKey: sandbox.securityKey,
				plan: 'enterprise',
			},
		},
		staticData,
	});
}

async function succeeded(run: Promise<PollRun>): Promise<PollRun> {
	const done = await run;
	if (done.error) throw done.error;
	return done;
}

function securityRequests(): number {
	return sandbox.requests.filter((request) => request.service === 'security').length;
}

/** A list of `size` threats, activated: returns the static data after activation. */
async function activatedList(
	shape: SecurityListShape,
	order: SecurityListOrder,
	size: number,
): Promise<IDataObject | undefined> {
	sandbox.reset();
	sandbox.setOptions({
		securityListShape: shape,
		securityListOrder: order,
		limits: { securityRequestsPerMinute: 1_000_000 },
	});
	sandbox.addThreats(size - SEEDED_THREATS);
	return (await succeeded(poll())).staticData;
}

/** Requests of each of `POLLS_MEASURED` polls that each find one new threat (their times into `times`). */
async function requestsPerPoll(
	staticData: IDataObject | undefined,
	times: number[] = [],
): Promise<number[]> {
	const counts: number[] = [];
	let memory = staticData;
	for (let round = 0; round < POLLS_MEASURED; round++) {
		const added = sandbox.addThreat();
		const before = securityRequests();
		const started = performance.now();
		const run = await succeeded(poll(memory));
		times.push(performance.now() - started);
		counts.push(securityRequests() - before);
		if (run.items.length !== 1 || run.items[0].json.id !== added.id) {
			throw new Error(
				`expected the poll to emit ${String(added.id)}, got ${run.items.map((item) => String(item.json.id)).join(', ')}`,
			);
		}
		memory = run.staticData;
	}
	return counts;
}

beforeAll(async () => {
	sandbox = await startSandbox({ quiet: true, limits: { securityRequestsPerMinute: 1_000_000 } });
	for (const shape of SHAPES) {
		for (const order of ORDERS) {
			const counts = [];
			for (const size of SIZES)
				counts.push((await requestsPerPoll(await activatedList(shape, order, size))).join(', '));
			rows.push([shape, order, ...counts]);
		}
	}
	useHttpRequestNode();
	for (const size of SIZES) {
		await activatedList('nextLinks', 'oldestFirst', size);
		const credentials = sandboxCredentials(sandbox);
		credentials.securityServiceApi = { ...credentials.securityServiceApi, plan: 'enterprise' };
		const http = await runBulk(sandbox, httpWholeList(), 1, credentials);
		if (http.failed > 0) throw new Error('the HTTP Request node failed to read the list');
		const times: number[] = [];
		const poll = await requestsPerPoll(
			await activatedList('nextLinks', 'oldestFirst', size),
			times,
		);
		const most = Math.max(...poll);
		const pollMs = median(times);
		httpRows.push([
			size.toLocaleString('en'),
			`${http.requests} (${http.ms.toFixed(0)} ms)`,
			`${most} (${pollMs.toFixed(1)} ms)`,
			`${Math.round(http.requests / most)}x fewer requests, ${Math.round(http.ms / pollMs)}x faster`,
		]);
	}
}, 600_000);

afterAll(async () => {
	await sandbox.close();
	printTable(
		`Poll cost: requests of a Security Service Trigger poll that finds 1 new threat (${POLLS_MEASURED} polls each, ${PAGE_SIZE} threats a page)`,
		['Pagination', 'List order', ...SIZES.map((size) => `${size.toLocaleString('en')} threats`)],
		rows,
	);
	printTable(
		"The same list read whole by n8n's HTTP Request node (pagination: next URL), requests per read, beside the most a trigger poll made",
		[
			'Threats',
			'HTTP Request node: requests (time)',
			'Trigger poll: most requests (median time)',
			'Trigger against HTTP Request',
		],
		httpRows,
	);
});

describe.each(ORDERS)('a poll finding 1 new threat in 10,000 (%s, next links)', (order) => {
	let memory: IDataObject | undefined;
	beforeAll(async () => {
		memory = await activatedList('nextLinks', order, 10_000);
	}, 600_000);

	bench(
		'poll',
		async () => {
			sandbox.addThreat();
			memory = (await succeeded(poll(memory))).staticData;
		},
		{ iterations: 20, time: 0, warmupIterations: 2, warmupTime: 0 },
	);
});
