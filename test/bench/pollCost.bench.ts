import type { IDataObject } from 'n8n-workflow';
import { afterAll, beforeAll, bench, describe } from 'vitest';

import { runPoll, triggerNode, type PollRun } from '../harness/runPoll.ts';
import { startSandbox, type Sandbox, type SecurityListOrder, type SecurityListShape } from '../sandbox/index.ts';
import { printTable } from './bulkRuns.ts';

/**
 * Poll cost: requests of a Security Service Trigger poll that finds 1 new record, in lists of
 * 100, 1,000 and 10,000 threats (10 a page, the sandbox's default), oldest first and newest first,
 * for each pagination style; beside it, the requests of reading the whole list (what every poll
 * cost before, and what an HTTP Request node with pagination costs). Also the time of such a poll
 * in the longest list.
 */
const SIZES = [100, 1_000, 10_000];
const ORDERS: SecurityListOrder[] = ['oldestFirst', 'newestFirst'];
const SHAPES: SecurityListShape[] = ['pageNumbers', 'nextLinks', 'cursors'];
const PAGE_SIZE = 10;
const SEEDED_THREATS = 27;
const POLLS_MEASURED = 3;

let sandbox: Sandbox;
const rows: Array<Array<string | number>> = [];

function poll(staticData?: IDataObject): Promise<PollRun> {
	return runPoll({
		node: triggerNode('securityServiceTrigger', { event: 'newThreat' }, 'securityServiceApi', 'Trigger'),
		credentials: { securityServiceApi: { baseUrl: sandbox.securityUrl, apiKey: sandbox.securityKey, plan: 'enterprise' } },
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
async function activatedList(shape: SecurityListShape, order: SecurityListOrder, size: number): Promise<IDataObject | undefined> {
	sandbox.reset();
	sandbox.setOptions({ securityListShape: shape, securityListOrder: order, limits: { securityRequestsPerMinute: 1_000_000 } });
	sandbox.addThreats(size - SEEDED_THREATS);
	return (await succeeded(poll())).staticData;
}

/** Requests of each of `POLLS_MEASURED` polls that each find one new threat. */
async function requestsPerPoll(staticData: IDataObject | undefined): Promise<number[]> {
	const counts: number[] = [];
	let memory = staticData;
	for (let round = 0; round < POLLS_MEASURED; round++) {
		const added = sandbox.addThreat();
		const before = securityRequests();
		const run = await succeeded(poll(memory));
		counts.push(securityRequests() - before);
		if (run.items.length !== 1 || run.items[0].json.id !== added.id) {
			throw new Error(`expected the poll to emit ${String(added.id)}, got ${run.items.map((item) => String(item.json.id)).join(', ')}`);
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
			for (const size of SIZES) counts.push((await requestsPerPoll(await activatedList(shape, order, size))).join(', '));
			const wholeList = SIZES.map((size) => Math.ceil((size + 1) / PAGE_SIZE));
			rows.push([shape, order, ...counts, wholeList.join(' / ')]);
		}
	}
}, 600_000);

afterAll(async () => {
	await sandbox.close();
	printTable(
		`Poll cost: requests of a Security Service Trigger poll that finds 1 new threat (${POLLS_MEASURED} polls each, ${PAGE_SIZE} threats a page)`,
		['Pagination', 'List order', ...SIZES.map((size) => `${size.toLocaleString('en')} threats`), 'Whole list (100 / 1,000 / 10,000)'],
		rows,
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
