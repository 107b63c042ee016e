import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import type { PollRun } from '../../support/harness/runPoll.mts';
import { requestsTo } from '../../support/harness/sandbox.mts';
import type { SecurityListOrder, SecurityListShape } from '../../support/sandbox/index.mts';
import { ids, NODE_NAME, threats, triggerSandbox } from './securityTrigger.mts';

// The plan's pace is not under test here: the sandbox and the credential allow any rate.
const { sandbox, poll } = triggerSandbox(
	{ limits: { securityRequestsPerMinute: 1_000_000 } },
	{ plan: 'enterprise' },
);

const PAGED_SHAPES: SecurityListShape[] = ['pageNumbers', 'nextLinks', 'cursors', 'paginated'];
const ORDERS: SecurityListOrder[] = ['oldestFirst', 'newestFirst'];

/** Security requests the sandbox received while `action` ran. */
async function counted<T>(action: () => Promise<T>): Promise<{ value: T; requests: number }> {
	const before = requestsTo(sandbox, 'security').length;
	const value = await action();
	return { value, requests: requestsTo(sandbox, 'security').length - before };
}

function threatIds(from: number, to: number): string[] {
	return Array.from({ length: to - from + 1 }, (_, index) => `thr_${from + index}`);
}

/** A poll that must succeed. */
async function succeeding(run: Promise<PollRun>): Promise<PollRun> {
	const done = await run;
	expect(done.error).toBeUndefined();
	return done;
}

describe('Security Service Trigger: a poll costs what is new', () => {
	describe.each(PAGED_SHAPES)('%s', (shape) => {
		it.each(ORDERS)(
			'%s: two requests for the first new record (both ends of the list, which teach its order), then one per poll, whatever the list length',
			async (order) => {
				sandbox.setOptions({ securityListShape: shape, securityListOrder: order });
				sandbox.addThreats(478); // 505 threats: 51 pages of 10, the last one with room
				const activation = await succeeding(poll(threats));
				expect(activation.result).toBeNull();

				let staticData = activation.staticData;
				const requestsPerRound: number[] = [];
				for (const round of [1, 2, 3]) {
					const added = sandbox.addThreat({ title: `New ${round}` });
					const { value: run, requests } = await counted(() =>
						succeeding(poll(threats, staticData)),
					);
					expect(ids(run)).toEqual([added.id]);
					requestsPerRound.push(requests);
					staticData = run.staticData;
				}
				// The first page and the last page holding records while the order is only shown; then
				// the end where new records are.
				expect(requestsPerRound).toEqual([2, 1, 1]);
				const { value: quiet, requests } = await counted(() =>
					succeeding(poll(threats, staticData)),
				);
				expect(quiet.result).toBeNull();
				expect(requests).toBe(1);
			},
		);

		it.each(ORDERS)('%s: reads one more page for each page of new records', async (order) => {
			sandbox.setOptions({ securityListShape: shape, securityListOrder: order });
			sandbox.addThreats(478);
			const activation = await succeeding(poll(threats));
			const listed = (from: number, to: number) =>
				order === 'oldestFirst' ? threatIds(from, to) : threatIds(from, to).reverse();

			// While the order is only shown, both ends: from the start to the first page holding an old
			// record, and from the last page that held records to the end.
			for (let index = 0; index < 20; index++) sandbox.addThreat();
			const both = await counted(() => succeeding(poll(threats, activation.staticData)));
			expect(ids(both.value)).toEqual(listed(506, 525));
			// Oldest first: page 1, then pages 51-53. Newest first: pages 1-3, then the last page that
			// held records to the end (page 51, now two pages before the end; a cursor names the page
			// after the same record: still the end).
			const bothEnds = order === 'oldestFirst' || shape === 'cursors' ? 4 : 6;
			expect(both.requests).toBe(bothEnds);

			// The order learnt: the pages holding new records alone.
			for (let index = 0; index < 25; index++) sandbox.addThreat();
			const { value: run, requests } = await counted(() =>
				succeeding(poll(threats, both.value.staticData)),
			);
			expect(ids(run)).toEqual(listed(526, 550));
			// The three pages holding new records: oldest first, the first of them is the one that held the
			// newest records before; newest first, the last of them also holds known ones.
			expect(requests).toBe(3);
		});
	});

	it('a manual run reads the first page when it lists the newest first and holds a match, else the whole list, and leaves the memory', async () => {
		sandbox.setOptions({ securityListShape: 'nextLinks', securityListOrder: 'oldestFirst' });
		sandbox.addThreats(478);
		const added = sandbox.addThreat({ severity: 'low' });
		const activation = await counted(() => succeeding(poll(threats)));
		const { staticData } = activation.value;

		/** A manual run of `parameters`: its record, its requests, and the memory left as it was. */
		const manualRun = async (parameters: INodeParameters, id: unknown, requests: number) => {
			const manual = await counted(() =>
				succeeding(poll(parameters, staticData, { mode: 'manual' })),
			);
			expect(ids(manual.value)).toEqual([id]);
			expect(manual.requests).toBe(requests);
			expect(manual.value.liveStaticData).toEqual(staticData);
		};
		// Oldest first: the whole list, as the activation read it.
		expect(activation.requests).toBeGreaterThan(40);
		await manualRun(threats, added.id, activation.requests);
		// Newest first: its first page.
		sandbox.setOptions({ securityListOrder: 'newestFirst' });
		await manualRun(threats, added.id, 1);
		// Nothing there passes the filters: the whole list, for the newest that does.
		const critical = { event: 'newThreat', filters: { severity: 'critical' } };
		await manualRun(critical, 'thr_24', activation.requests);
	});

	it('reads nothing but the list when it comes in one answer', async () => {
		sandbox.addThreats(2000);
		const activation = await succeeding(poll(threats));
		const added = sandbox.addThreat();
		const { value: run, requests } = await counted(() =>
			succeeding(poll(threats, activation.staticData)),
		);
		expect(ids(run)).toEqual([added.id]);
		expect(requests).toBe(1);
	});

	it('activation reads all pages of a newest-first list as of an oldest-first one (one read teaches no order)', async () => {
		sandbox.setOptions({ securityListShape: 'nextLinks', securityListOrder: 'newestFirst' });
		sandbox.addThreats(73); // 100 threats
		expect((await counted(() => succeeding(poll(threats)))).requests).toBe(10);

		sandbox.setOptions({ securityListOrder: 'oldestFirst' });
		expect((await counted(() => succeeding(poll(threats)))).requests).toBe(10);
	});

	it('reads a list whose order neither dates nor IDs show whole on each poll (issue 37: it learnt an order from where new records appeared, and lost records inserted elsewhere)', async () => {
		sandbox.setOptions({ securityListShape: 'nextLinks', securityListOrder: 'oldestFirst' });
		// Undated threats with opaque IDs, listed alone through a site filter.
		const opaque = (index: number) => ({
			id: `x${(index * 7919) % 1000}k`,
			detectedAt: null,
			siteId: 'st_opaque',
		});
		const parameters = {
			event: 'newThreat',
			queryParameters: { parameters: [{ name: 'siteId', value: 'st_opaque' }] },
		};
		for (let index = 1; index <= 40; index++) sandbox.addThreat(opaque(index));
		const activation = await succeeding(poll(parameters));

		// Order unknown: each poll reads the whole list and emits what it does not remember.
		sandbox.addThreat(opaque(41));
		const first = await counted(() => succeeding(poll(parameters, activation.staticData)));
		expect(ids(first.value)).toEqual([opaque(41).id]);
		expect(first.requests).toBe(5);

		sandbox.addThreat(opaque(42));
		const second = await counted(() => succeeding(poll(parameters, first.value.staticData)));
		expect(ids(second.value)).toEqual([opaque(42).id]);
		expect(second.requests).toBe(5);
	});
});

type Order = SecurityListOrder;

/**
 * Polls with a budget so small that each poll reads one page, until `quiet` polls in a row
 * emit nothing, restarting n8n (static data as saved, process memory gone) after `restartAfter` polls.
 * Durable cursors on: every successful poll commits; off: only a poll that emits saves.
 */
async function drain(
	start: IDataObject | undefined,
	options: {
		durableCursors: boolean;
		restartAfter: number;
		parameters?: INodeParameters;
		duringPoll?: (index: number) => void;
		quiet?: number;
	},
): Promise<{ emitted: string[]; polls: number; staticData: IDataObject | undefined }> {
	const emitted: string[] = [];
	let saved = start;
	let live = start;
	let quietPolls = 0;
	let polls = 0;
	while (quietPolls < (options.quiet ?? 3) && polls < 200) {
		if (polls === options.restartAfter) live = saved;
		options.duringPoll?.(polls);
		const run = await succeeding(
			poll(options.parameters ?? threats, live, {
				pollBudgetMs: 0,
				durableCursors: options.durableCursors,
			}),
		);
		polls++;
		emitted.push(...ids(run));
		quietPolls = run.result === null ? quietPolls + 1 : 0;
		saved = run.staticData;
		live = options.durableCursors ? run.staticData : run.liveStaticData;
	}
	return { emitted, polls, staticData: live };
}

describe('Security Service Trigger: a backlog longer than one poll', () => {
	describe.each<[SecurityListShape, Order]>([
		['pageNumbers', 'oldestFirst'],
		['pageNumbers', 'newestFirst'],
		['nextLinks', 'newestFirst'],
		['cursors', 'oldestFirst'],
		['cursors', 'newestFirst'],
	])('%s, %s', (shape, order) => {
		it.each([true, false])(
			'durable cursors %s: every record once across polls and a restart, while more arrive',
			async (durableCursors) => {
				sandbox.setOptions({ securityListShape: shape, securityListOrder: order });
				sandbox.addThreats(73);
				const activation = await succeeding(poll(threats));
				for (let index = 0; index < 45; index++) sandbox.addThreat();

				const result = await drain(activation.staticData, {
					durableCursors,
					restartAfter: 3,
					// New records keep arriving while the backlog is read.
					duringPoll: (index) => {
						if (index === 1 || index === 4) sandbox.addThreat();
					},
				});
				expect([...result.emitted].sort()).toEqual(threatIds(101, 147).sort());
				expect(new Set(result.emitted).size).toBe(result.emitted.length);
				expect(result.polls).toBeGreaterThan(5);
			},
		);
	});

	it.each([true, false])(
		'durable cursors %s: polls that emit nothing lose nothing when a restart undoes them',
		async (durableCursors) => {
			sandbox.setOptions({ securityListShape: 'pageNumbers', securityListOrder: 'oldestFirst' });
			const parameters = { event: 'newThreat', filters: { severity: 'critical' } };
			const activation = await succeeding(poll(parameters));
			// Pages of low threats (nothing to emit) between critical ones.
			for (let index = 0; index < 35; index++)
				sandbox.addThreat({ severity: index % 17 === 0 ? 'critical' : 'low' });

			const result = await drain(activation.staticData, {
				durableCursors,
				restartAfter: 2,
				parameters,
			});
			expect(result.emitted).toEqual(['thr_28', 'thr_45', 'thr_62']);
		},
	);

	it('a poll whose execution n8n did not record (memory not committed) is repeated by the next poll, then the backlog goes on', async () => {
		sandbox.setOptions({ securityListShape: 'cursors', securityListOrder: 'newestFirst' });
		const activation = await succeeding(poll(threats));
		for (let index = 0; index < 15; index++) sandbox.addThreat();

		const cut = await succeeding(poll(threats, activation.staticData, { pollBudgetMs: 0 }));
		expect(ids(cut)).toEqual(threatIds(33, 42).reverse());
		// Durable cursors commit the memory with the execution: when that fails, the next poll starts from the old one.
		const repeated = await succeeding(poll(threats, activation.staticData, { pollBudgetMs: 0 }));
		expect(ids(repeated)).toEqual(ids(cut));
		const rest = await succeeding(poll(threats, repeated.staticData, { pollBudgetMs: 0 }));
		expect(ids(rest)).toEqual(threatIds(28, 32).reverse());
		const done = await succeeding(poll(threats, rest.staticData, { pollBudgetMs: 0 }));
		expect(done.result).toBeNull();
	});

	it('the first poll of a list longer than its budget goes on at the next poll and emits nothing old', async () => {
		sandbox.setOptions({ securityListShape: 'nextLinks', securityListOrder: 'oldestFirst' });
		sandbox.addThreats(33); // 60 threats, 6 pages
		const first = await counted(() => succeeding(poll(threats, undefined, { pollBudgetMs: 0 })));
		expect(first.requests).toBe(1);
		const added = sandbox.addThreat({ detectedAt: new Date(Date.now() + 1000).toISOString() });

		const result = await drain(first.value.staticData, {
			durableCursors: true,
			restartAfter: 2,
			quiet: 8,
		});
		expect(result.emitted).toEqual([added.id]);
	});

	it('reads to the end in one poll on n8n without a poll budget', async () => {
		sandbox.setOptions({ securityListShape: 'pageNumbers', securityListOrder: 'oldestFirst' });
		const activation = await succeeding(poll(threats, undefined, { pollBudgetMs: null }));
		for (let index = 0; index < 45; index++) sandbox.addThreat();
		const run = await succeeding(poll(threats, activation.staticData, { pollBudgetMs: null }));
		expect(ids(run)).toEqual(threatIds(28, 72));
	});
});

describe('Security Service Trigger: a remembered place that is gone', () => {
	const openThreats = {
		event: 'newThreat',
		queryParameters: { parameters: [{ name: 'status', value: 'open' }] },
	};

	it('a stale cursor (its record left the list) makes the poll read from the start, emitting each new record once', async () => {
		sandbox.setOptions({ securityListShape: 'cursors', securityListOrder: 'oldestFirst' });
		for (let index = 0; index < 8; index++) sandbox.addThreat();
		const activation = await succeeding(poll(openThreats));
		const memory = (
			activation.staticData?.[`node:${NODE_NAME}`] as {
				seen: { lastPage: { qs: { cursor: string } } };
			}
		).seen;
		const cursorRecord = Buffer.from(memory.lastPage.qs.cursor, 'base64url').toString();

		const resolved = await fetch(`${sandbox.securityUrl}/threats/${cursorRecord}/resolve`, {
			method: 'PATCH',
			headers: { authorization: `Bearer ${sandbox.securityKey}` },
		});
		expect(resolved.status).toBe(200);
		const added = sandbox.addThreat();
		const before = requestsTo(sandbox, 'security').length;
		const run = await succeeding(poll(openThreats, activation.staticData));
		expect(ids(run)).toEqual([added.id]);
		const answers = requestsTo(sandbox, 'security')
			.slice(before)
			.map((request) => request.status);
		// The list's first page (the order is only shown: both ends are read), the stale cursor, then
		// on from page 2 to the end.
		expect(answers).toEqual([200, 400, 200, 200]);

		const again = await succeeding(poll(openThreats, run.staticData));
		expect(again.result).toBeNull();
	});

	it('an emptied page of an oldest-first list makes the poll read from the start', async () => {
		sandbox.setOptions({ securityListShape: 'pageNumbers', securityListOrder: 'oldestFirst' });
		for (let index = 0; index < 8; index++) sandbox.addThreat();
		const activation = await succeeding(poll(openThreats));
		for (const id of [
			'thr_1',
			'thr_2',
			'thr_3',
			'thr_5',
			'thr_6',
			'thr_7',
			'thr_9',
			'thr_10',
			'thr_11',
			'thr_13',
		]) {
			await fetch(`${sandbox.securityUrl}/threats/${id}/resolve`, {
				method: 'PATCH',
				headers: { authorization: `Bearer ${sandbox.securityKey}` },
			});
		}
		const added = sandbox.addThreat();
		const run = await succeeding(poll(openThreats, activation.staticData));
		expect(ids(run)).toEqual([added.id]);
	});
});

describe('Security Service Trigger: memory', () => {
	it('keeps a hash of its configuration, not the configuration itself', async () => {
		const activation = await succeeding(poll(threats));
		const memory = (activation.staticData?.[`node:${NODE_NAME}`] as { seen: IDataObject }).seen;
		expect(memory.fingerprint).toMatch(/^[0-9a-f]{32}$/);
		expect(JSON.stringify(memory)).not.toContain(sandbox.securityUrl);
		sandbox.addThreat();
		expect(ids(await succeeding(poll(threats, activation.staticData)))).toEqual(['thr_28']);
	});

	it('stays small for a long list', async () => {
		sandbox.setOptions({ securityListShape: 'cursors', securityListOrder: 'oldestFirst' });
		sandbox.addThreats(5000);
		const parameters = {
			event: 'newThreat',
			queryParameters: { parameters: [{ name: 'per_page', value: '100' }] },
		};
		const activation = await succeeding(poll(parameters));
		expect(JSON.stringify(activation.staticData).length).toBeLessThan(20_000);
	});
});
