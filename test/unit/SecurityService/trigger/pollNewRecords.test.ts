import type { IDataObject, INode } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { orderOf } from '../../../../nodes/SecurityService/trigger/recordOrder.ts';
import {
	ListReader,
	MAX_PAGES_PER_POLL,
	type PageRef,
} from '../../../../nodes/SecurityService/trigger/pageWalk.ts';
import { newestRecord } from '../../../../nodes/SecurityService/trigger/newestRecord.ts';
import type { Wanted } from '../../../../nodes/SecurityService/trigger/pollDecisions.ts';
import { firstPoll, nextPoll } from '../../../../nodes/SecurityService/trigger/pollNewRecords.ts';
import {
	configurationFingerprint,
	MAX_REMEMBERED_IDS,
	readMemory,
	storedMemory,
	type PollMemory,
} from '../../../../nodes/SecurityService/trigger/pollMemory.ts';
import {
	identifyRecords,
	type IdentifiedRecord,
} from '../../../../nodes/SecurityService/trigger/recordIds.ts';
import {
	matchesFilters,
	readFilters,
} from '../../../../nodes/SecurityService/trigger/recordFilters.ts';
import { TRIGGER_EVENTS } from '../../../../nodes/SecurityService/trigger/triggerEvents.ts';

const node = {
	name: 'Trigger',
	type: 'test',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
	id: 'n',
} as INode;
const everything = () => true;

function records(...ids: string[]): IdentifiedRecord[] {
	return ids.map((id) => ({ id, record: { id } }));
}

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
	return new ListReader(node, 'records', fetchPage, undefined);
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

	it('reads only an intact memory of the same configuration, also as earlier versions stored it', () => {
		const fingerprint = configurationFingerprint('configuration');
		expect(readMemory({ fingerprint, ids: ['a', 1, 'b'] }, 'configuration')).toEqual({
			fingerprint,
			ids: ['a', 'b'],
			pending: [],
			gaps: [],
			order: undefined,
			tail: undefined,
			continueAt: undefined,
			seeking: undefined,
			newest: undefined,
		});
		expect(readMemory({ source: 'configuration', ids: ['a'] }, 'configuration')?.ids).toEqual([
			'a',
		]);
		expect(readMemory({ source: 'other', ids: ['a'] }, 'configuration')).toBeUndefined();
		expect(
			readMemory({ fingerprint: configurationFingerprint('other'), ids: ['a'] }, 'configuration'),
		).toBeUndefined();
		expect(readMemory({ fingerprint }, 'configuration')).toBeUndefined();
		expect(readMemory(undefined, 'configuration')).toBeUndefined();
		expect(readMemory('garbage', 'configuration')).toBeUndefined();
	});

	it('stores only what it holds, and reads back what it stored', () => {
		const memory: PollMemory = {
			fingerprint: 'fp',
			ids: ['a'],
			pending: [],
			gaps: [
				{
					at: { url: 'https://api.example/v1/threats?page=3' },
					until: ['b'],
					skip: ['c'],
					newest: 5,
				},
			],
			order: 'newestFirst',
			seeking: { at: { qs: { cursor: 'x' } } },
		};
		const stored = storedMemory(memory);
		expect(stored).toEqual({
			fingerprint: 'fp',
			ids: ['a'],
			order: 'newestFirst',
			gaps: [
				{
					at: { url: 'https://api.example/v1/threats?page=3' },
					until: ['b'],
					skip: ['c'],
					newest: 5,
				},
			],
			seeking: { at: { qs: { cursor: 'x' } } },
		});
		expect(
			readMemory({ ...stored, fingerprint: configurationFingerprint('c') }, 'c'),
		).toMatchObject({
			gaps: memory.gaps,
			seeking: { at: { qs: { cursor: 'x' } }, since: undefined },
			order: 'newestFirst',
		});
	});
});

describe('list order', () => {
	it('is told by dates that only rise or only fall, else by ID numbers, else not at all', () => {
		const at = (...times: number[]) =>
			times.map((createdAt, index) => ({ id: 'xyzw'[index], record: { createdAt } }));
		expect(orderOf(at(1, 2, 2, 3))).toBe('oldestFirst');
		expect(orderOf(at(3, 2, 1))).toBe('newestFirst');
		expect(orderOf(at(1, 3, 2))).toBeUndefined();
		expect(orderOf(records('thr_9', 'thr_10', 'thr_11'))).toBe('oldestFirst');
		expect(orderOf(records('thr_11', 'thr_2'))).toBe('newestFirst');
		expect(orderOf(records('a1', 'b2'))).toBeUndefined();
		expect(orderOf(records('thr_1'))).toBeUndefined();
	});
});

describe('record IDs', () => {
	it('takes string and number IDs, trimmed, and keeps the first of duplicates', () => {
		const identified = identifyRecords(
			node,
			[{ id: ' a ' }, { id: 7 }, { id: 'a', copy: true }],
			'threats',
		);
		expect(identified).toEqual([
			{ id: 'a', record: { id: ' a ' } },
			{ id: '7', record: { id: 7 } },
		]);
	});

	it.each([[{}], [{ id: '' }], [{ id: null }], [{ id: { nested: 1 } }]])(
		'refuses a record like %j',
		(record) => {
			expect(() => identifyRecords(node, [{ id: 'a' }, record as IDataObject], 'scans')).toThrow(
				'1 of 2 scans in the list have no "id" field',
			);
		},
	);
});

describe('newest record', () => {
	it('is the latest by date when every record has one', () => {
		const list: IdentifiedRecord[] = [
			{ id: 'b', record: { id: 'b', detectedAt: '2024-06-02T00:00:00Z' } },
			{ id: 'a', record: { id: 'a', detectedAt: '2024-06-03T00:00:00Z' } },
			{ id: 'c', record: { id: 'c', createdAt: '2024-06-01T00:00:00Z' } },
		];
		expect(newestRecord(list)?.id).toBe('a');
	});

	it('falls back to the number ending the IDs, then to the last record', () => {
		expect(newestRecord(records('upd_9', 'upd_10', 'upd_2'))?.id).toBe('upd_10');
		const undated: IdentifiedRecord[] = [
			{ id: 'scn_7', record: { id: 'scn_7', startedAt: '2024-06-01T00:00:00Z' } },
			{ id: 'scn_8', record: { id: 'scn_8', startedAt: null } },
		];
		expect(newestRecord(undated)?.id).toBe('scn_8');
		expect(newestRecord(records('b3f1-x', 'a9c2-y'))?.id).toBe('a9c2-y');
		expect(newestRecord([])).toBeUndefined();
	});
});

describe('record filters', () => {
	const threatEvent = TRIGGER_EVENTS.find((event) => event.value === 'newThreat');
	if (!threatEvent) throw new Error('newThreat missing');

	it('reads comma-separated values and ignores empty filters', () => {
		expect(
			readFilters(threatEvent, { severity: ' High, critical ', status: '', unknown: 'x' }),
		).toEqual([{ fields: ['severity'], values: ['high', 'critical'] }]);
		expect(readFilters(threatEvent, undefined)).toEqual([]);
	});

	it('matches case-insensitively, by any alias, and refuses records without the field', () => {
		const filters = readFilters(threatEvent, { severity: 'high', siteId: 'st_1' });
		expect(matchesFilters({ severity: 'HIGH', siteId: 'st_1' }, filters)).toBe(true);
		expect(matchesFilters({ severity: 'high', site_id: 'st_1' }, filters)).toBe(true);
		expect(matchesFilters({ severity: 'low', siteId: 'st_1' }, filters)).toBe(false);
		expect(matchesFilters({ siteId: 'st_1' }, filters)).toBe(false);
		expect(matchesFilters({ anything: 1 }, [])).toBe(true);
	});
});
