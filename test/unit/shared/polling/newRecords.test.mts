import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import type { PollResult, RecordFilter } from '../../../../nodes/shared/polling/listRecords.ts';
import { newestNewRecord, pollNewRecords } from '../../../../nodes/shared/polling/newRecords.ts';
import { listOf, records } from './records.mts';

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

describe('new records', () => {
	it('remembers everything on the first poll and emits only records not seen later', async () => {
		const first = await poll(plain('a', 'b'));
		expect(first.records).toEqual([]);
		expect(first.memory.seenIds).toEqual(['a', 'b']);

		const next = await poll(plain('a', 'b', 'c'), first.memory);
		expect(emitted(next)).toEqual(['c']);
		// 'c' came at the end: the list is oldest first, remembered from its new end.
		expect(next.memory.order).toBe('oldestFirst');
		expect(next.memory.seenIds).toEqual(['c', 'b', 'a']);
		expect((await poll(plain('a', 'b', 'c'), next.memory)).records).toEqual([]);
	});

	it('starts over, emitting nothing, for a memory of another configuration or of an older format', async () => {
		const first = await poll(plain('a'));
		const other = await pollNewRecords(listOf(plain('a', 'b')).list, first.memory, 'other', []);
		expect(other.records).toEqual([]);
		expect(other.memory.seenIds).toEqual(['a', 'b']);
		// The format before issue 31 kept `ids`, `pending`, `tail`, `gaps`, `seeking`.
		const older = { fingerprint: first.memory.fingerprint, ids: ['a'] };
		expect((await poll(plain('a', 'b'), older)).records).toEqual([]);
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
		expect(completed.memory.seenIds).toEqual(['b', 'a']);
		expect(completed.memory.refusedIds).toEqual([]);
	});

	it('keeps at most 200 refused IDs, those read first', async () => {
		const first = await poll(plain('a'));
		const many = range(1, 250).map((record) => ({ ...record, status: 'queued' }));
		const done = [{ fields: ['status'], values: ['completed'] }];
		const refused = await poll([...plain('a'), ...many], first.memory, { filters: done });
		expect(refused.memory.refusedIds).toHaveLength(200);
		expect((refused.memory.refusedIds as string[])[0]).toBe('r1');
	});

	it('stays within 1,000 IDs and watches both ends, 500 each, of a longer list whose order it cannot tell', async () => {
		const list = opaque(2000);
		const first = await poll(list);
		expect(first.memory.order).toBeUndefined();
		const ids = first.memory.seenIds as string[];
		expect(ids).toHaveLength(1000);
		expect(ids.slice(0, 500)).toEqual(list.slice(0, 500).map(({ id }) => id));
		expect(ids.slice(500)).toEqual(list.slice(1500).map(({ id }) => id));

		// New records at either end are found; the unremembered middle is never reported.
		const grown = [...plain('new-first'), ...list, ...plain('new-last')];
		const next = await poll(grown, first.memory);
		expect(emitted(next)).toEqual(['new-first', 'new-last']);
		expect(next.memory.seenIds).toHaveLength(1000);
		expect((await poll(grown, next.memory)).records).toEqual([]);
	});

	it('remembers the new end of a list whose dates show its order, and learns an order from where new records appear', async () => {
		const first = await poll(range(1, 30, true), undefined, { pageSize: 10 });
		expect(first.memory.order).toBe('oldestFirst');
		expect((first.memory.seenIds as string[])[0]).toBe('r30');
		expect(first.memory.newestPage).toEqual({ qs: { page: 3 } });

		const list = opaque(30);
		const unordered = await poll(list, undefined, { pageSize: 10 });
		expect(unordered.memory.order).toBeUndefined();
		const next = await poll([...plain('fresh'), ...list], unordered.memory, { pageSize: 10 });
		expect(emitted(next)).toEqual(['fresh']);
		expect(next.memory.order).toBe('newestFirst');
	});

	it('goes on at the next poll after 1,000 pages, and the first poll reading on emits nothing old', async () => {
		// Two records a page, dated oldest first: 1,250 pages.
		const list = range(1, 2500, true);
		const first = await poll(list, undefined, { pageSize: 2 });
		expect(first.memory.order).toBe('oldestFirst');
		expect(first.memory.unfinishedRead).toEqual({
			from: { qs: { page: 1001 } },
			newAfter: expect.any(Number) as number,
		});
		const fresh = { id: 'fresh', createdAt: Date.now() + 1000 };
		const next = await poll([...list, fresh], first.memory, { pageSize: 2 });
		expect(emitted(next)).toEqual(['fresh']);
		expect(next.memory.unfinishedRead).toBeUndefined();
		expect(next.memory.newestPage).toEqual({ qs: { page: 1251 } });
	});

	it('makes room for new IDs by dropping departed ones when the memory is full', async () => {
		const first = await poll(range(1, 1000));
		const later = await poll(range(1001, 1010), first.memory);
		expect(later.records).toHaveLength(10);
		expect(later.memory.seenIds).toHaveLength(1000);
		expect(later.memory.seenIds).toContain('r1010');
		expect(later.memory.seenIds).not.toContain('r1');
	});

	it('a manual run emits the newest record the filters accept and changes nothing', async () => {
		const list = [...range(1, 5), { id: 'r6', status: 'open' }, { id: 'r7' }];
		const first = await poll(list);
		const open = [{ fields: ['status'], values: ['open'] }];
		expect(await newestNewRecord(listOf(list).list, first.memory, CONFIGURATION, open)).toEqual({
			id: 'r6',
			status: 'open',
		});
		expect(await newestNewRecord(listOf(list).list, undefined, CONFIGURATION, [])).toEqual({
			id: 'r7',
		});
	});
});
