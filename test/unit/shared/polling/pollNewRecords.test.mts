import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	ListReader,
	MAX_PAGES_PER_POLL,
	type PageRef,
} from '../../../../nodes/shared/polling/pageWalk.ts';
import type { Wanted } from '../../../../nodes/shared/polling/pollDecisions.ts';
import { firstPoll, nextPoll } from '../../../../nodes/shared/polling/pollNewRecords.ts';
import {
	MAX_REMEMBERED_IDS,
	type PollMemory,
} from '../../../../nodes/shared/polling/pollMemory.ts';
import type { IdentifiedRecord } from '../../../../nodes/shared/polling/recordIds.ts';
import { node, records } from './records.mts';

const everything = () => true;

function range(from: number, to: number): IdentifiedRecord[] {
	return records(...Array.from({ length: to - from + 1 }, (_, index) => `r${from + index}`));
}

/** A list in memory, read in pages of `pageSize` (page numbers), with no time limit. */
function reader(list: IdentifiedRecord[], pageSize = Number.MAX_SAFE_INTEGER): ListReader {
	const fetchPage = async (ref: PageRef | undefined) => {
		const page = Number(ref?.qs?.page ?? 1);
		const next = page * pageSize < list.length ? { qs: { page: page + 1 } } : undefined;
		return {
			records: list.slice((page - 1) * pageSize, page * pageSize).map(({ record }) => record),
			next,
		};
	};
	return new ListReader(node, 'Test Service', 'records', fetchPage, undefined);
}

/** Opaque IDs without dates: the order cannot be told from a page. */
function opaque(count: number, prefix = 'k'): IdentifiedRecord[] {
	return records(
		...Array.from({ length: count }, (_, index) => `${prefix}${(index * 7919) % 100_000}x`),
	);
}

async function first(list: IdentifiedRecord[], pageSize?: number): Promise<PollMemory> {
	return await firstPoll(reader(list, pageSize), 'fp', Date.now());
}

async function next(
	memory: PollMemory,
	list: IdentifiedRecord[],
	wanted: Wanted = everything,
	pageSize?: number,
) {
	return await nextPoll(reader(list, pageSize), memory, wanted);
}

function emitted(outcome: { emit: IdentifiedRecord[] }): string[] {
	return outcome.emit.map(({ id }) => id);
}

describe('poll memory', () => {
	it('remembers everything on the first poll and emits only unknown records later', async () => {
		const memory = await first(records('a', 'b'));
		expect(memory.ids).toEqual(['a', 'b']);

		const outcome = await next(memory, records('a', 'b', 'c'));
		expect(emitted(outcome)).toEqual(['c']);
		// 'c' came at the end: the list is oldest first, remembered from its new end.
		expect(outcome.memory.order).toBe('oldestFirst');
		expect(outcome.memory.ids).toEqual(['c', 'b', 'a']);
		expect((await next(outcome.memory, records('a', 'b', 'c'))).emit).toEqual([]);
	});

	it('says when a list read whole no longer shows any record seen before, in either order', async () => {
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
			const memory = await first(records(...before));
			const lost = await next(memory, records(...after));
			expect(lost.lostTrack).toBe(true);
			expect(emitted(lost).sort()).toEqual(['a_7', 'a_8', 'a_9']);
			const seen = await next(lost.memory, records(...after, 'a_10'));
			expect(seen.lostTrack).toBe(false);
		}
	});

	it('keeps IDs that left the list, so a list that comes back short causes no flood', async () => {
		const memory = await first(records('a', 'b', 'c'));
		const short = await next(memory, records());
		expect(short.emit).toEqual([]);
		expect(short.memory.ids).toEqual(['a', 'b', 'c']);
		expect((await next(short.memory, records('a', 'b', 'c'))).emit).toEqual([]);
	});

	it('does not remember records the filters refuse, so they are emitted once they match', async () => {
		const memory = await first(records('a'));
		const queued = { id: 'b', record: { id: 'b', status: 'queued' } };
		const isDone = (record: IDataObject) => record.status === 'completed';

		const whileQueued = await next(memory, [...records('a'), queued], isDone);
		expect(whileQueued.emit).toEqual([]);
		expect(whileQueued.memory.ids).toEqual(['a']);
		expect(whileQueued.memory.pending).toEqual(['b']);

		const done = { id: 'b', record: { id: 'b', status: 'completed' } };
		const completed = await next(whileQueued.memory, [...records('a'), done], isDone);
		expect(completed.emit).toEqual([done]);
		expect(completed.memory.ids).toEqual(['b', 'a']);
		expect(completed.memory.pending).toEqual([]);
	});

	it(`stays within ${MAX_REMEMBERED_IDS} IDs and watches both ends of a longer list whose order it cannot tell`, async () => {
		const list = opaque(MAX_REMEMBERED_IDS + 1000);
		const memory = await first(list);
		expect(memory.order).toBeUndefined();
		expect(memory.ids).toHaveLength(MAX_REMEMBERED_IDS);
		expect(memory.ids[0]).toBe(list[0].id);
		expect(memory.ids[MAX_REMEMBERED_IDS / 2]).toBe(list[list.length - MAX_REMEMBERED_IDS / 2].id);

		// New records at either end are found; the unremembered middle is never reported.
		const grown = [...records('new-first'), ...list, ...records('new-last')];
		const outcome = await next(memory, grown);
		expect(emitted(outcome)).toEqual(['new-first', 'new-last']);
		expect(outcome.memory.ids).toHaveLength(MAX_REMEMBERED_IDS);
		expect((await next(outcome.memory, grown)).emit).toEqual([]);
	});

	it('remembers the new end of a list whose order its dates show, and learns an order from where new records appear', async () => {
		const dated = range(1, 30).map(({ id }, index) => ({
			id,
			record: { id, createdAt: 1000 + index },
		}));
		const memory = await first(dated, 10);
		expect(memory.order).toBe('oldestFirst');
		expect(memory.ids[0]).toBe('r30');
		expect(memory.tail).toEqual({ qs: { page: 3 } });

		const list = opaque(30);
		const unordered = await first(list, 10);
		expect(unordered.order).toBeUndefined();
		const outcome = await next(unordered, [...records('fresh'), ...list], everything, 10);
		expect(emitted(outcome)).toEqual(['fresh']);
		expect(outcome.memory.order).toBe('newestFirst');
	});

	it(`goes on at the next poll after ${MAX_PAGES_PER_POLL} pages, and the first poll's reading emits nothing old`, async () => {
		// Two records a page, dated oldest first: 1,250 pages.
		const list = range(1, 2 * MAX_PAGES_PER_POLL + 500).map(({ id }, index) => ({
			id,
			record: { id, createdAt: 1000 + index },
		}));
		const memory = await first(list, 2);
		expect(memory.order).toBe('oldestFirst');
		expect(memory.seeking?.at).toEqual({ qs: { page: MAX_PAGES_PER_POLL + 1 } });
		const fresh = { id: 'fresh', record: { id: 'fresh', createdAt: Date.now() + 1000 } };
		const outcome = await next(memory, [...list, fresh], everything, 2);
		expect(emitted(outcome)).toEqual(['fresh']);
		expect(outcome.memory.seeking).toBeUndefined();
		expect(outcome.memory.tail).toEqual({ qs: { page: MAX_PAGES_PER_POLL + 251 } });
	});

	it('makes room for new IDs by dropping departed ones when the memory is full', async () => {
		const memory = await first(range(1, MAX_REMEMBERED_IDS));
		const later = await next(memory, range(MAX_REMEMBERED_IDS + 1, MAX_REMEMBERED_IDS + 10));
		expect(later.emit).toHaveLength(10);
		expect(later.memory.ids).toHaveLength(MAX_REMEMBERED_IDS);
		expect(later.memory.ids).toContain(`r${MAX_REMEMBERED_IDS + 10}`);
		expect(later.memory.ids).not.toContain('r1');
	});
});
