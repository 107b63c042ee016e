import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import type {
	EventList,
	PollResult,
	RecordFilter,
} from '../../../../nodes/shared/polling/listRecords.ts';
import { newestNewRecord, pollNewRecords } from '../../../../nodes/shared/polling/newRecords.ts';
import { listOf, records } from '../../../support/polling/records.mts';

const CONFIGURATION = 'configuration';

/** Records r<from> … r<to>, dated oldest first when `dated`. */
function range(from: number, to: number, dated = false): IDataObject[] {
	return Array.from({ length: to - from + 1 }, (_, index) => ({
		id: `r${from + index}`,
		...(dated && { createdAt: 1000 + from + index }),
	}));
}

const plain = (...ids: string[]) => records(...ids).map(({ record }) => record);

/** Opaque IDs without dates: the order cannot be told from a page. */
function opaque(count: number): IDataObject[] {
	return plain(...Array.from({ length: count }, (_, index) => `k${(index * 7919) % 100_000}x`));
}

async function poll(
	list: IDataObject[],
	stored?: IDataObject,
	{
		filters = [] as RecordFilter[],
		pageSize = undefined as number | undefined,
		now = Date.now(),
	} = {},
): Promise<PollResult> {
	return await pollNewRecords(listOf(list, { pageSize }).list, stored, CONFIGURATION, filters, now);
}

const emitted = (outcome: PollResult) => outcome.records.map((record) => record.id);

/**
 * The second poll of `list`, whose first poll read it without its newest record (at its start or
 * its end): a first read teaches no order (its records may be one batch, listed either way); the
 * second, holding a new record beside records read before, learns it.
 */
async function secondPoll(
	list: IDataObject[],
	newEnd: 'start' | 'end',
	options: { pageSize?: number } = {},
): Promise<PollResult> {
	const before = newEnd === 'start' ? list.slice(1) : list.slice(0, -1);
	const first = await poll(before, undefined, options);
	expect(first.memory.order).toBeUndefined();
	return await poll(list, first.memory, options);
}

describe('new records', () => {
	it('remembers everything on the first poll and emits only records not seen later', async () => {
		const first = await poll(plain('a', 'b'));
		expect(first.records).toEqual([]);
		expect(first.memory.seenIds).toEqual(['a', 'b']);

		const next = await poll(plain('a', 'b', 'c'), first.memory);
		expect(emitted(next)).toEqual(['c']);
		// Where 'c' came shows no order (issue 37): only dates or numbers do.
		expect(next.memory.order).toBeUndefined();
		expect(next.memory.seenIds).toEqual(['a', 'b', 'c']);
		expect((await poll(plain('a', 'b', 'c'), next.memory)).records).toEqual([]);
		// Nothing new shows no order.
		expect((await poll(plain('a', 'b'), first.memory)).memory.order).toBeUndefined();
	});

	it('starts over, emitting nothing, for a memory of another configuration or of an older format', async () => {
		const first = await poll(plain('a'));
		const other = await pollNewRecords(listOf(plain('a', 'b')).list, first.memory, 'other', []);
		expect(other.records).toEqual([]);
		expect(other.memory.seenIds).toEqual(['a', 'b']);
		// The format before issue 31 kept `ids`, `pending`, `tail`, `gaps`, `seeking`; the one before
		// issue 37 had no `newest`.
		const older = { fingerprint: first.memory.fingerprint, ids: ['a'] };
		expect((await poll(plain('a', 'b'), older)).records).toEqual([]);
		const before37 = { fingerprint: first.memory.fingerprint, seenIds: ['a'], refusedIds: [] };
		expect((await poll(plain('a', 'b'), before37)).records).toEqual([]);
	});

	it('warns when a list read whole no longer shows any record seen before, in either order', async () => {
		for (const [before, after] of [
			[
				['a_3', 'a_2', 'a_1'],
				['a_9', 'a_8', 'a_7'],
			],
			[
				['a_1', 'a_2', 'a_3'],
				['a_7', 'a_8', 'a_9'],
			],
		]) {
			const first = await poll(plain(...before));
			const newestSeen = (first.memory.seenIds as string[])[0];
			const lost = await poll(plain(...after), first.memory);
			expect(emitted(lost).sort()).toEqual(['a_7', 'a_8', 'a_9']);
			expect(lost.warning).toBe(
				`Trigger: the list of records no longer shows any of those seen before (the newest was ${newestSeen}). The poll emitted the 3 new records it sees (${emitted(lost)[0]} … ${emitted(lost)[2]}); records added after ${newestSeen} that the list no longer shows may have been missed.`,
			);
			const seen = await poll(plain(...after, 'a_10'), lost.memory);
			expect(seen.warning).toBeUndefined();
		}
	});

	it('keeps IDs that left the list, so a list that comes back short causes no flood', async () => {
		const first = await poll(plain('a', 'b', 'c'));
		const short = await poll([], first.memory);
		expect(short.records).toEqual([]);
		expect(short.warning).toBeUndefined();
		expect(short.memory.seenIds).toEqual(['a', 'b', 'c']);
		expect((await poll(plain('a', 'b', 'c'), short.memory)).records).toEqual([]);
	});

	it('remembers records the filters refuse as refused, so they are emitted once they match', async () => {
		const first = await poll(plain('a'));
		const done = [{ fields: ['status'], values: ['completed'] }];
		const whileQueued = await poll([...plain('a'), { id: 'b', status: 'queued' }], first.memory, {
			filters: done,
		});
		expect(whileQueued.records).toEqual([]);
		expect(whileQueued.memory.seenIds).toEqual(['a']);
		expect(whileQueued.memory.refusedIds).toEqual(['b']);

		const completed = await poll(
			[...plain('a'), { id: 'b', status: 'completed' }],
			whileQueued.memory,
			{
				filters: done,
			},
		);
		expect(completed.records).toEqual([{ id: 'b', status: 'completed' }]);
		expect(completed.memory.seenIds).toEqual(['a', 'b']);
		expect(completed.memory.refusedIds).toEqual([]);
		// A refused record the poll does not read stays refused.
		const unread = await poll(plain('a'), whileQueued.memory, { filters: done });
		expect(unread.memory.refusedIds).toEqual(['b']);
	});

	it('keeps at most 200 refused IDs, those read first', async () => {
		const first = await poll(plain('a'));
		const many = range(1, 250).map((record) => ({ ...record, status: 'queued' }));
		const done = [{ fields: ['status'], values: ['completed'] }];
		const refused = await poll([...plain('a'), ...many], first.memory, { filters: done });
		expect(refused.memory.refusedIds).toHaveLength(200);
		expect((refused.memory.refusedIds as string[])[0]).toBe('r1');
	});

	it('remembers up to 5,000 IDs of a list in no visible order, and finds new records anywhere in it', async () => {
		const list = opaque(2000);
		const first = await poll(list);
		expect(first.memory.order).toBeUndefined();
		expect(first.memory.seenIds).toHaveLength(2000);
		const grown = [
			...plain('new-first'),
			...list.slice(0, 900),
			...plain('inside'),
			...list.slice(900),
		];
		const next = await poll(grown, first.memory);
		expect(emitted(next)).toEqual(['new-first', 'inside']);
		expect((await poll(grown, next.memory)).records).toEqual([]);
		// Records that left: no flood.
		expect((await poll(list.slice(0, 1950), next.memory)).records).toEqual([]);
	});

	it('emits nothing of a list in no visible order longer than its memory, and warns, until it fits again', async () => {
		const list = opaque(5000);
		const first = await poll(list);
		const over = await poll([...list, ...plain('one-too-many')], first.memory);
		expect(over.records).toEqual([]);
		expect(over.memory.overflow).toBe(true);
		expect(over.memory.seenIds).toHaveLength(5000);
		expect(over.warning).toBe(
			'Trigger: the list of records shows no order and holds more than the 5000 records the trigger can tell apart; new records are not emitted until it holds fewer. Narrow it with Query Parameters.',
		);
		// Back within the memory: the first read takes it in again, the next emits what is new.
		const fits = await poll(list.slice(1), over.memory);
		expect(fits.records).toEqual([]);
		expect(fits.memory.overflow).toBeUndefined();
		expect(emitted(await poll([...list.slice(1), ...plain('new')], fits.memory))).toEqual(['new']);
		// A dated record newer than all read is new even then.
		const dated = { id: 'dated', createdAt: 5 };
		const datedOver = await poll(
			[...list, { id: 'old', createdAt: 1 }, ...plain('x')],
			first.memory,
		);
		expect(emitted(await poll([...list, dated, ...plain('x')], datedOver.memory))).toEqual([
			'dated',
		]);
	});

	it('counts a list in no visible order over the polls that read it in parts, and stays quiet for the whole pass that outgrew the memory', async () => {
		const inParts = async (list: IDataObject[], stored: IDataObject) => {
			const { list: eventList } = listOf(list, { pageSize: 2000, budgetMs: 0 });
			return await pollNewRecords(eventList, stored, CONFIGURATION, []);
		};
		const list = opaque(5000);
		let memory = (await poll(list)).memory;
		const over = [...list, ...plain('over')];
		const counts: unknown[] = [];
		for (let part = 0; part < 3; part++) {
			const next = await inParts(over, memory);
			expect(next.records).toEqual([]);
			counts.push(
				(next.memory.unread as { count?: number } | undefined)?.count ?? next.memory.overflow,
			);
			memory = next.memory;
		}
		expect(counts).toEqual([2000, 4000, true]);
		// The next pass stays quiet to its end, though its first parts fit.
		const fits = [...list.slice(2), ...plain('during')];
		for (let part = 0; part < 3; part++) {
			const next = await inParts(fits, memory);
			expect(next.records).toEqual([]);
			expect(next.memory.overflow).toBe(part < 2 ? true : undefined);
			memory = next.memory;
		}
		expect(emitted(await poll([...fits, ...plain('after')], memory))).toEqual(['after']);
	});

	it('learns the order from the dates of its records, never from where new records appear', async () => {
		// The first read's dates only rise: they show an order, but one batch may be listed either
		// way, so it is not learnt yet.
		const first = await poll(range(1, 30, true), undefined, { pageSize: 10 });
		expect(first.memory.order).toBeUndefined();
		expect(first.memory.showsOrder).toBe('oldestFirst');
		expect(first.memory.lastPage).toEqual({ qs: { page: 3 } });
		// A record newer than those read, beside them, teaches it.
		const second = await poll(range(1, 31, true), first.memory, { pageSize: 10 });
		expect(emitted(second)).toEqual(['r31']);
		expect(second.memory.order).toBe('oldestFirst');
		expect(second.memory).not.toHaveProperty('showsOrder');
		expect((second.memory.seenIds as string[])[0]).toBe('r31');
		expect(second.memory.lastPage).toEqual({ qs: { page: 4 } });

		const list = opaque(30);
		const unordered = await poll(list, undefined, { pageSize: 10 });
		expect(unordered.memory.order).toBeUndefined();
		const next = await poll([...plain('fresh'), ...list], unordered.memory, { pageSize: 10 });
		expect(emitted(next)).toEqual(['fresh']);
		expect(next.memory.order).toBeUndefined();

		// A first list that turns back may be one batch in any order: it teaches nothing. With
		// records seen before, a batch listed in another order at the new end does not hide the order.
		const batch = [...range(1, 2, true), ...range(3, 4, true).reverse()];
		const firstBatch = await poll(batch, undefined, { pageSize: 2 });
		expect(firstBatch.memory.order).toBeUndefined();
		const withBatch = [...batch, ...range(5, 6, true).reverse()];
		expect((await poll(withBatch, firstBatch.memory, { pageSize: 2 })).memory.order).toBe(
			'oldestFirst',
		);
		// Records of one poll alone (its new ones) teach nothing.
		const empty = await poll([], undefined);
		expect((await poll(range(1, 3, true), empty.memory)).memory.order).toBeUndefined();
		// Records seen before with new ones teach it.
		const one = await poll(range(1, 1, true));
		expect(one.memory.order).toBeUndefined();
		expect((await poll(range(1, 2, true), one.memory)).memory.order).toBe('oldestFirst');
	});

	it('goes on at the next poll after 1,000 pages, and the first poll reading on emits nothing old', async () => {
		// Two records a page, dated oldest first: 1,250 pages.
		const list = range(1, 2500, true);
		const first = await poll(list, undefined, { pageSize: 2 });
		// A first read teaches no order, and one cut short shows none yet.
		expect(first.memory.order).toBeUndefined();
		expect(first.memory).not.toHaveProperty('showsOrder');
		expect(first.memory.resumeAt).toEqual({ qs: { page: 1000 } });
		// The rest of the first read is old, unless dated after the first poll began.
		expect(first.memory.unread).toEqual({
			newest: { time: expect.any(Number) as number, ids: [] },
			quiet: true,
			count: 2000,
			// The page it read last, read again when it goes on: its records tell whether the list moved.
			pageIds: ['r1999', 'r2000'],
		});
		const fresh = { id: 'fresh', createdAt: Date.now() + 1000 };
		const next = await poll([...list, fresh], first.memory, { pageSize: 2 });
		expect(emitted(next)).toEqual(['fresh']);
		expect(next.memory.unread).toBeUndefined();
		// Its old records and the new one teach the order.
		expect(next.memory.order).toBe('oldestFirst');
		expect(next.memory.lastPage).toEqual({ qs: { page: 1251 } });
	});

	it('the first poll cut short takes a record of the millisecond it began as old, a later one as new', async () => {
		const now = 5000;
		const list = [
			{ id: 'a', createdAt: 1 },
			{ id: 'b', createdAt: now },
			{ id: 'c', createdAt: now + 1 },
		];
		const short = listOf(list, { pageSize: 1, budgetMs: 0 }).list;
		const first = await pollNewRecords(short, undefined, CONFIGURATION, [], now);
		expect(first.memory.resumeAt).toEqual({});
		expect(emitted(await poll(list, first.memory, { pageSize: 1 }))).toEqual(['c']);
	});

	it('keeps the last page holding records unless the list is found newest first', async () => {
		// Before the order is learnt, it is kept: the next poll reads both ends of the list.
		const first = await poll(newestFirst(1, 6), undefined, { pageSize: 2 });
		expect(first.memory.order).toBeUndefined();
		expect(first.memory.lastPage).toEqual({ qs: { page: 3 } });
		const newest = await poll(newestFirst(1, 9), first.memory, { pageSize: 2 });
		expect(emitted(newest)).toEqual(['n9', 'n8', 'n7']);
		expect(newest.memory.order).toBe('newestFirst');
		expect(newest.memory).not.toHaveProperty('lastPage');
		// In no visible order, and oldest first, it is kept.
		const unordered = await poll(opaque(5), undefined, { pageSize: 2 });
		expect(unordered.memory.order).toBeUndefined();
		expect(unordered.memory.lastPage).toEqual({ qs: { page: 3 } });
		const oldest = await secondPoll(range(1, 5, true), 'end', { pageSize: 2 });
		expect(oldest.memory.order).toBe('oldestFirst');
		expect(oldest.memory.lastPage).toEqual({ qs: { page: 3 } });
	});

	it('makes room for new IDs by dropping departed ones when the memory is full', async () => {
		const first = await poll(range(1, 1000));
		const later = await poll(range(1001, 1010), first.memory);
		expect(later.records).toHaveLength(10);
		expect(later.memory.seenIds).toHaveLength(1000);
		expect(later.memory.seenIds).toContain('r1010');
		expect(later.memory.seenIds).not.toContain('r1');
	});

	it('a manual run emits the newest record the filters accept', async () => {
		const list = [...range(1, 5), { id: 'r6', status: 'open' }, { id: 'r7' }];
		const open = [{ fields: ['status'], values: ['open'] }];
		expect(await newestNewRecord(listOf(list).list, open)).toEqual({ id: 'r6', status: 'open' });
		expect(await newestNewRecord(listOf(list).list, [])).toEqual({ id: 'r7' });
		const none = [{ fields: ['status'], values: ['none'] }];
		expect(await newestNewRecord(listOf(list).list, none)).toBeUndefined();
	});
});

/** Records n<from> … n<to>, newest first, dated by their number. */
function newestFirst(from: number, to: number): IDataObject[] {
	return Array.from({ length: to - from + 1 }, (_, index) => ({
		id: `n${to - index}`,
		createdAt: 1000 + to - index,
	}));
}

/** One poll of `list` in pages of 2; `budgetMs` 0 reads one page (a read going on: two). */
async function pagedPoll(list: IDataObject[], stored: IDataObject, budgetMs?: number) {
	const { list: eventList, fetched } = listOf(list, { pageSize: 2, budgetMs });
	const result = await pollNewRecords(eventList, stored, CONFIGURATION, []);
	return { ...result, fetched };
}

/** One poll that reads one page (a budget of 0), over `list` in pages of 2. */
const shortPoll = (list: IDataObject[], stored: IDataObject) => pagedPoll(list, stored, 0);

describe('new records over polls short of time', () => {
	it('newest first: reads the unread range a poll left, page by page, and emits each record once', async () => {
		const first = await secondPoll(newestFirst(1, 6), 'start', { pageSize: 2 });
		expect(first.memory.order).toBe('newestFirst');
		// The second poll read the list's first page and its last (n2, n1): both ends.
		expect(first.memory.seenIds).toEqual(['n6', 'n5', 'n2', 'n1', 'n4', 'n3']);

		const cut = await shortPoll(newestFirst(1, 11), first.memory);
		expect(emitted(cut)).toEqual(['n11', 'n10']);
		expect(cut.memory.resumeAt).toEqual({});
		// The range is judged from what was newest when it began.
		expect(cut.memory.unread).toEqual({
			newest: { time: 1006, ids: ['n6'] },
			count: 2,
			pageIds: ['n11', 'n10'],
			untilOld: true,
		});
		expect(cut.memory.seenIds).toEqual(['n11', 'n10', 'n6', 'n5', 'n2', 'n1', 'n4', 'n3']);

		// n12 arrives: the read goes on with the list's first page again (now n12, n11), then page 2
		// (n10, emitted already, and n9).
		const range = await shortPoll(newestFirst(1, 12), cut.memory);
		expect(range.fetched).toEqual([undefined, { qs: { page: 2 } }]);
		expect(emitted(range)).toEqual(['n12', 'n9']);
		expect(range.memory.resumeAt).toEqual({ qs: { page: 2 } });
		expect(range.memory.unread).toEqual({
			newest: { time: 1006, ids: ['n6'] },
			count: 4,
			pageIds: ['n10', 'n9'],
			untilOld: true,
		});

		const rangeEnd = await shortPoll(newestFirst(1, 12), range.memory);
		expect(rangeEnd.fetched).toEqual([{ qs: { page: 2 } }, { qs: { page: 3 } }]);
		expect(emitted(rangeEnd)).toEqual(['n8', 'n7']);
		expect(rangeEnd.memory.resumeAt).toEqual({ qs: { page: 3 } });
		const done = await shortPoll(newestFirst(1, 12), rangeEnd.memory);
		expect(done.fetched).toEqual([{ qs: { page: 3 } }, { qs: { page: 4 } }]);
		expect(done.records).toEqual([]);
		expect(done.memory.unread).toBeUndefined();
		// The range ends at the first page holding a record of what was newest when it began.
		expect([...(done.memory.seenIds as string[])].sort()).toEqual(
			['n12', 'n11', 'n10', 'n9', 'n8', 'n7', 'n6', 'n5', 'n4', 'n3', 'n2', 'n1'].sort(),
		);

		const head = await poll(newestFirst(1, 12), done.memory, { pageSize: 2 });
		expect(head.records).toEqual([]);
		expect(emitted(await poll(newestFirst(1, 13), head.memory, { pageSize: 2 }))).toEqual(['n13']);
	});

	it('newest first: an unread range whose end left the list emits what is dated after it began (its second too) or shows no date or number', async () => {
		// The order learnt, and shown by a first read but not learnt yet.
		for (const first of [
			await secondPoll(newestFirst(1, 2), 'start', { pageSize: 2 }),
			await poll(newestFirst(1, 2), undefined, { pageSize: 2 }),
		]) {
			const cut = await shortPoll(newestFirst(1, 7), first.memory);
			expect(emitted(cut)).toEqual(['n7', 'n6']);
			const gone = [
				...newestFirst(3, 7),
				{ id: 'same', createdAt: 1002 },
				{ id: 'old', createdAt: 5 },
				{ id: 'undated' },
			];
			const rest = await poll(gone, cut.memory, { pageSize: 2 });
			expect(emitted(rest)).toEqual(['n5', 'n4', 'n3', 'same', 'undated']);
			expect(rest.memory.unread).toBeUndefined();
		}
	});

	it('newest first: a page that shows the other order keeps the order learnt (issue 37: it made the next polls read the whole list)', async () => {
		const first = await secondPoll(newestFirst(1, 4), 'start', { pageSize: 2 });
		expect(first.memory.order).toBe('newestFirst');
		const batch = [...newestFirst(5, 6).reverse(), ...newestFirst(1, 4)];
		const turned = await poll(batch, first.memory, { pageSize: 2 });
		expect(emitted(turned)).toEqual(['n5', 'n6']);
		expect(turned.memory.order).toBe('newestFirst');
		expect(turned.memory.unread).toBeUndefined();
	});

	it('newest first: warns when the list no longer shows any record seen before', async () => {
		// The order learnt, and shown by a first read but not learnt yet.
		for (const first of [
			await secondPoll(newestFirst(1, 4), 'start', { pageSize: 2 }),
			await poll(newestFirst(1, 4), undefined, { pageSize: 2 }),
		]) {
			const lost = await poll(newestFirst(10, 12), first.memory, { pageSize: 2 });
			expect(emitted(lost)).toEqual(['n12', 'n11', 'n10']);
			expect(lost.warning).toContain('the newest was n4');
			const empty = await poll([], first.memory, { pageSize: 2 });
			expect(empty.warning).toBeUndefined();
		}
	});

	it('oldest first: goes on where the last poll stopped, emitting every new record once, in order', async () => {
		const first = await secondPoll(range(1, 10, true), 'end', { pageSize: 2 });
		expect(first.memory.order).toBe('oldestFirst');
		expect(first.memory.lastPage).toEqual({ qs: { page: 5 } });
		let memory = first.memory;
		const emittedIds: string[] = [];
		const asked: unknown[] = [];
		for (let round = 0; round < 5; round++) {
			const next = await shortPoll(range(1, 15, true), memory);
			emittedIds.push(...(emitted(next) as string[]));
			asked.push(...next.fetched);
			memory = next.memory;
		}
		expect(emittedIds).toEqual(['r11', 'r12', 'r13', 'r14', 'r15']);
		// Each poll going on reads again the page the last one read last, then one page more.
		expect(asked).toEqual([5, 5, 6, 6, 7, 7, 8, 8].map((page) => ({ qs: { page } })));
		expect(memory.resumeAt).toBeUndefined();
		expect(memory.lastPage).toEqual({ qs: { page: 8 } });
		expect((memory.seenIds as string[]).slice(0, 3)).toEqual(['r15', 'r14', 'r13']);
	});

	it('oldest first: reads from the start when the remembered page no longer starts with a record seen before', async () => {
		const first = await secondPoll(range(1, 6, true), 'end', { pageSize: 2 });
		expect(first.memory.order).toBe('oldestFirst');
		const shifted = [...range(3, 6, true), ...range(7, 8, true)];
		const { list, fetched } = listOf(shifted, { pageSize: 2 });
		const next = await pollNewRecords(list, first.memory, CONFIGURATION, []);
		expect(fetched).toEqual([
			{ qs: { page: 3 } },
			undefined,
			{ qs: { page: 2 } },
			{ qs: { page: 3 } },
		]);
		expect(emitted(next)).toEqual(['r7', 'r8']);
		expect(next.memory.lastPage).toEqual({ qs: { page: 3 } });

		// Without time for the list's start, it forgets the page and reads from the start next time.
		const short = await shortPoll(shifted, first.memory);
		expect(short.fetched).toEqual([{ qs: { page: 3 } }]);
		expect(short.records).toEqual([]);
		expect(short.memory.lastPage).toBeUndefined();
		expect(short.memory.order).toBe('oldestFirst');
		const after = await poll(shifted, short.memory, { pageSize: 2 });
		expect(emitted(after)).toEqual(['r7', 'r8']);
	});

	it('oldest first: a remembered page now empty makes the poll read from the start', async () => {
		const first = await secondPoll(range(1, 6, true), 'end', { pageSize: 2 });
		expect(first.memory.order).toBe('oldestFirst');
		const { list, fetched } = listOf(range(1, 4, true), { pageSize: 2 });
		const next = await pollNewRecords(list, first.memory, CONFIGURATION, []);
		expect(fetched).toEqual([{ qs: { page: 3 } }, undefined, { qs: { page: 2 } }]);
		expect(next.records).toEqual([]);
	});

	it('oldest first: the page that held the newest records is the last one holding any', async () => {
		const pages = [range(1, 1, true), []];
		const fetched: unknown[] = [];
		const list: EventList = {
			...listOf([]).list,
			readPage: async (at) => {
				fetched.push(at);
				const page = Number(at?.qs?.page ?? 1);
				const next = page < pages.length ? { qs: { page: page + 1 } } : undefined;
				return await Promise.resolve({ records: pages[page - 1], next });
			},
		};
		const first = await pollNewRecords(list, undefined, CONFIGURATION, []);
		pages[0] = range(1, 2, true);
		const second = await pollNewRecords(list, first.memory, CONFIGURATION, []);
		expect(second.memory.order).toBe('oldestFirst');
		expect(second.memory.lastPage).toBeUndefined();
		fetched.length = 0;
		await pollNewRecords(list, second.memory, CONFIGURATION, []);
		expect(fetched).toEqual([undefined, { qs: { page: 2 } }]);
	});

	it('oldest first: a page that shows the other order keeps the order learnt', async () => {
		const first = await secondPoll(range(1, 4, true), 'end', { pageSize: 2 });
		expect(first.memory.order).toBe('oldestFirst');
		const turned = [...range(1, 4, true), ...range(5, 6, true).reverse()];
		const next = await poll(turned, first.memory, { pageSize: 2 });
		expect(emitted(next)).toEqual(['r6', 'r5']);
		expect(next.memory.order).toBe('oldestFirst');
		expect(next.memory.lastPage).toEqual({ qs: { page: 3 } });
	});

	it('oldest first: a read from the start cut short after records seen before goes on at the next poll', async () => {
		const first = await secondPoll(range(1, 4), 'end', { pageSize: 2 });
		expect(first.memory.order).toBe('oldestFirst');
		// r0, before those seen, is not new; the cut page holds it and r1, seen before.
		const cut = await shortPoll(range(0, 5), { ...first.memory, lastPage: undefined });
		expect(cut.records).toEqual([]);
		const rest = await poll(range(0, 5), cut.memory, { pageSize: 2 });
		expect(emitted(rest)).toEqual(['r5']);
	});

	it('a record that appears among those seen before, on their old side, is not new', async () => {
		// Newest first: after the first record seen.
		const first = await poll(newestFirst(1, 4));
		const inserted = { id: 'x', createdAt: 1002.5 };
		const below = [...newestFirst(5, 5), ...newestFirst(3, 4), inserted, ...newestFirst(1, 2)];
		expect(emitted(await poll(below, first.memory))).toEqual(['n5']);
		const atTop = [...newestFirst(4, 4), inserted, ...newestFirst(1, 3)];
		expect((await poll(atTop, first.memory)).records).toEqual([]);
		// Oldest first: before the first record seen; dated or, with numbered IDs, not.
		for (const dated of [true, false]) {
			const oldest = await poll(range(1, 3, dated));
			const before = [
				{ id: dated ? 'x' : 'r0', ...(dated && { createdAt: 1 }) },
				...range(1, 4, dated),
			];
			expect(emitted(await poll(before, oldest.memory))).toEqual(['r4']);
		}
		// A record with neither a date nor a number cannot be told old: it is new.
		const oldest = await poll(range(1, 3));
		expect(emitted(await poll([...plain('x'), ...range(1, 4)], oldest.memory))).toEqual([
			'x',
			'r4',
		]);
	});

	it('newest first, undated: the records of an unread range are new up to its end', async () => {
		const ids = (from: number, to: number) =>
			plain(...Array.from({ length: to - from + 1 }, (_, index) => `n${to - index}`));
		const first = await secondPoll(ids(1, 6), 'start', { pageSize: 2 });
		expect(first.memory.order).toBe('newestFirst');
		const cut = await shortPoll(ids(1, 11), first.memory);
		expect(emitted(cut)).toEqual(['n11', 'n10']);
		const cutAgain = await shortPoll(ids(1, 11), cut.memory);
		expect(emitted(cutAgain)).toEqual(['n9', 'n8']);
		const rest = await poll(ids(1, 11), cutAgain.memory, { pageSize: 2 });
		expect(emitted(rest)).toEqual(['n7']);
	});

	it('newest first: remembers the 1,000 newest of more new records', async () => {
		const first = await secondPoll(newestFirst(1, 2), 'start', { pageSize: 100 });
		expect(first.memory.order).toBe('newestFirst');
		const next = await poll(newestFirst(1, 1202), first.memory, { pageSize: 100 });
		expect(next.records).toHaveLength(1200);
		expect(next.memory.seenIds).toEqual(newestFirst(203, 1202).map(({ id }) => id));
		expect(next.memory.newest).toEqual({ time: 2202, ids: ['n1202'] });
	});

	it('warns, emitting nothing, when the list shows only records older than those seen', async () => {
		const first = await poll(range(5, 6, true));
		const older = await poll(
			[
				{ id: 'x1', createdAt: 1 },
				{ id: 'x2', createdAt: 2 },
			],
			first.memory,
		);
		expect(older.records).toEqual([]);
		expect(older.warning).toBe(
			'Trigger: the list of records no longer shows any of those seen before (the newest was r6). The poll emitted the 0 new records it sees; records added after r6 that the list no longer shows may have been missed.',
		);
	});

	it('oldest first: a stale remembered page makes the poll read from the start', async () => {
		const first = await secondPoll(range(1, 4, true), 'end', { pageSize: 2 });
		expect(first.memory.order).toBe('oldestFirst');
		const stale = { ...first.memory, lastPage: { qs: { cursor: 'gone' } } };
		const { list, fetched } = listOf(range(1, 5, true), { pageSize: 2 });
		const next = await pollNewRecords(list, stale, CONFIGURATION, []);
		expect(fetched[0]).toEqual({ qs: { cursor: 'gone' } });
		expect(fetched[1]).toBeUndefined();
		expect(emitted(next)).toEqual(['r5']);
		expect(next.warning).toBeUndefined();
	});

	it('oldest first: a read cut short that finds nothing seen before counts only records dated after the newest seen', async () => {
		const first = await secondPoll(range(1, 2, true), 'end', { pageSize: 2 });
		expect(first.memory.order).toBe('oldestFirst');
		const late = { id: 'late', createdAt: 1 };
		const moved = [...range(10, 11, true), late, ...range(12, 13, true)];
		const cut = await shortPoll(moved, { ...first.memory, lastPage: undefined });
		expect(cut.memory.resumeAt).toEqual({});
		expect(cut.memory.unread).toEqual({
			newest: { time: 1002, ids: ['r2'] },
			count: 2,
			pageIds: ['r10', 'r11'],
		});
		expect(emitted(cut)).toEqual(['r10', 'r11']);
		const again = await shortPoll(moved, cut.memory);
		expect(emitted(again)).toEqual(['r12']);
		const rest = await poll(moved, again.memory, { pageSize: 2 });
		expect(emitted(rest)).toEqual(['r13']);
		expect(rest.memory.unread).toBeUndefined();
		expect(rest.memory.lastPage).toEqual({ qs: { page: 3 } });
		expect(rest.warning).toBeUndefined();
	});

	it('a read that has not found its place yet and whose page went stale reads on from the start to the end', async () => {
		const first = await poll(newestFirst(1, 2), undefined, { pageSize: 2 });
		const unfinished = {
			...first.memory,
			resumeAt: { qs: { cursor: 'gone' } },
			unread: { endIds: [], newAfter: 1002 },
		};
		const { list, fetched } = listOf(newestFirst(1, 6), { pageSize: 2 });
		const next = await pollNewRecords(list, unfinished, CONFIGURATION, []);
		// Not only the first page, though it shows the newest records first.
		expect(fetched).toEqual([
			{ qs: { cursor: 'gone' } },
			undefined,
			{ qs: { page: 2 } },
			{ qs: { page: 3 } },
		]);
		expect(emitted(next)).toEqual(['n6', 'n5', 'n4', 'n3']);
		expect(next.memory.unread).toBeUndefined();
	});

	it('order unknown: goes on where a poll stopped, and watches the list end it reads', async () => {
		const list = opaque(6);
		const first = await poll(list, undefined, { pageSize: 2 });
		expect(first.memory.order).toBeUndefined();
		const grown = [...list, ...plain('new')];
		const cut = await shortPoll(grown, first.memory);
		expect(cut.memory.resumeAt).toEqual({});
		expect(cut.records).toEqual([]);
		let memory = cut.memory;
		const emittedIds: string[] = [];
		for (let round = 0; round < 3; round++) {
			const next = await shortPoll(grown, memory);
			emittedIds.push(...(emitted(next) as string[]));
			memory = next.memory;
		}
		expect(emittedIds).toEqual(['new']);
		expect(memory.resumeAt).toBeUndefined();
		expect(memory.order).toBeUndefined();
	});

	it('order unknown: a read cut short that finds none seen emits the new records at the start', async () => {
		const list = opaque(4);
		const first = await poll(list, undefined, { pageSize: 2 });
		const cut = await shortPoll([...plain('fresh-a', 'fresh-b'), ...list], first.memory);
		expect(emitted(cut)).toEqual(['fresh-a', 'fresh-b']);
		// A read that goes on does not learn the order from its pages alone.
		const dated = [
			{ id: 'd1', createdAt: 1 },
			{ id: 'd2', createdAt: 2 },
		];
		const resumed = { ...first.memory, resumeAt: { qs: { page: 2 } } };
		const next = await poll([...list.slice(0, 2), ...dated], resumed, { pageSize: 2 });
		expect(next.memory.order).toBeUndefined();
	});

	it('order unknown: a whole list holding none of the records seen before emits those newer than them and warns', async () => {
		const first = await poll(opaque(3), undefined);
		const lost = await poll(plain('x_1', 'x_2'), first.memory);
		expect(emitted(lost)).toEqual(['x_1', 'x_2']);
		expect(lost.warning).toContain('the newest was');
		expect((await poll([], first.memory)).warning).toBeUndefined();
	});

	it('the first poll of an empty list emits everything that appears next', async () => {
		const first = await poll([]);
		expect(first.memory).toEqual({
			fingerprint: expect.stringMatching(/^[0-9a-f]{32}$/) as string,
			seenIds: [],
			refusedIds: [],
			newest: { ids: [] },
		});
		const next = await poll(plain('b', 'a'), first.memory);
		expect(emitted(next)).toEqual(['b', 'a']);
		expect(next.warning).toBeUndefined();
	});
});

describe('new records of a list that shows an order not learnt yet', () => {
	const page = (n: number) => ({ qs: { page: n } });

	it('a first read whose dates turn back shows none: any record not seen is new, read whole', async () => {
		const at = (id: string, createdAt: number) => ({ id, createdAt });
		const list = [at('a', 5), at('b', 3), at('c', 4), at('d', 1)];
		const first = await pagedPoll(list, {});
		expect(first.memory).not.toHaveProperty('showsOrder');
		const inserted = [...list.slice(0, 3), at('e', 2), list[3]];
		const next = await pagedPoll(inserted, first.memory);
		expect(emitted(next)).toEqual(['e']);
		// Dated in no visible order: a record inside the list, newer than all, is found too.
		const inside = [...list.slice(0, 2), at('f', 9), ...list.slice(2)];
		const later = await pagedPoll(inside, next.memory);
		expect(emitted(later)).toEqual(['f']);
		expect(later.fetched).toEqual([undefined, page(2), page(3)]);
	});

	it('reads the start to the first page holding an old record, then the end from its last page', async () => {
		const first = await pagedPoll(newestFirst(1, 6), {});
		expect(first.memory.showsOrder).toBe('newestFirst');
		// One page: the start is the end.
		const single = await pagedPoll(newestFirst(1, 2), {});
		expect((await pagedPoll(newestFirst(1, 2), single.memory)).fetched).toEqual([undefined]);
		// The end is read even when the start took the poll's time.
		const quiet = await pagedPoll(newestFirst(1, 6), first.memory, 0);
		expect(quiet.fetched).toEqual([undefined, page(3)]);
		// Records left before the last page: with no time to read the end from the start, the next
		// poll reads it.
		const shorter = await pagedPoll(newestFirst(1, 4), first.memory, 0);
		expect(shorter.fetched).toEqual([undefined, page(3)]);
		expect(shorter.records).toEqual([]);
		expect((await pagedPoll(newestFirst(1, 4), shorter.memory)).fetched).toEqual([
			undefined,
			page(3),
			page(2),
		]);
	});

	it('a burst at the start read in parts goes on to the first page holding an old record, then reads the end if time is left', async () => {
		const first = await pagedPoll(newestFirst(1, 6), {});
		const burst = newestFirst(1, 10);
		const cut = await pagedPoll(burst, first.memory, 0);
		expect(emitted(cut)).toEqual(['n10', 'n9']);
		const goingOn = await pagedPoll(burst, cut.memory, 0);
		expect(goingOn.fetched).toEqual([undefined, page(2)]);
		expect(emitted(goingOn)).toEqual(['n8', 'n7']);
		// Out of time at the page holding an old record: the end is left to the next poll.
		const reached = await pagedPoll(burst, goingOn.memory, 0);
		expect(reached.fetched).toEqual([page(2), page(3)]);
		expect(emitted(reached)).toEqual([]);
		expect(reached.memory).not.toHaveProperty('resumeAt');
		// With time, the end (from its last page, where n6 was) follows.
		const roomy = await pagedPoll(burst, goingOn.memory);
		expect(roomy.fetched).toEqual([page(2), page(3), page(3), page(4), page(5)]);
	});

	it('the first read going on drops the rest once it learns the list is newest first', async () => {
		const now = 1006;
		const short = listOf(newestFirst(1, 6), { pageSize: 2, budgetMs: 0 }).list;
		const first = await pollNewRecords(short, undefined, CONFIGURATION, [], now);
		expect(first.memory.resumeAt).toEqual({});
		const added = newestFirst(1, 8);
		const next = await pagedPoll(added, first.memory, 0);
		expect(emitted(next)).toEqual(['n8', 'n7']);
		expect(next.memory.order).toBe('newestFirst');
		expect(next.memory).not.toHaveProperty('resumeAt');
		expect((await pagedPoll(added, next.memory, 0)).fetched).toEqual([undefined]);
	});
});

describe('new record test event', () => {
	it('reads only the first page when it lists the newest first and holds a record the filters accept', async () => {
		const { list, fetched } = listOf(newestFirst(1, 6), { pageSize: 2 });
		expect(await newestNewRecord(list, [])).toMatchObject({ id: 'n6' });
		expect(fetched).toEqual([undefined]);
	});

	it('reads the whole list otherwise: a first page in another order, or one holding no record the filters accept', async () => {
		const oldestFirst = listOf(range(1, 6, true), { pageSize: 2 });
		expect(await newestNewRecord(oldestFirst.list, [])).toMatchObject({ id: 'r6' });
		expect(oldestFirst.fetched).toHaveLength(3);

		const list = newestFirst(1, 6).map((record, index) => ({ ...record, open: index > 1 }));
		const open = [{ fields: ['open'], values: ['true'] }];
		const whole = listOf(list, { pageSize: 2 });
		expect(await newestNewRecord(whole.list, open)).toMatchObject({ id: 'n4' });
		// The first page is not read twice.
		expect(whole.fetched).toEqual([undefined, { qs: { page: 2 } }, { qs: { page: 3 } }]);
	});

	it('finds the newest of a batch listed out of order at the end of an oldest-first list (found by the model)', async () => {
		// Read from the page that held the newest records, it found r4 on the last page.
		const batch = [5, 2, 3, 4].map((number) => ({ id: `r${number}`, createdAt: 1000 + number }));
		const { list } = listOf([...range(1, 1, true), ...batch], { pageSize: 2 });
		expect(await newestNewRecord(list, [])).toMatchObject({ id: 'r5' });
	});
});
