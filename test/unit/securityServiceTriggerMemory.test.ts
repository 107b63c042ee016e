import type { IDataObject, INode } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { newestRecord } from '../../nodes/SecurityServiceTrigger/newestRecord.ts';
import {
	firstMemory,
	MAX_REMEMBERED_IDS,
	nextPoll,
	readMemory,
	WATCHED_AT_EACH_END,
} from '../../nodes/SecurityServiceTrigger/pollMemory.ts';
import { identifyRecords, type IdentifiedRecord } from '../../nodes/SecurityServiceTrigger/recordIds.ts';
import { matchesFilters, readFilters } from '../../nodes/SecurityServiceTrigger/recordFilters.ts';
import { TRIGGER_EVENTS } from '../../nodes/SecurityServiceTrigger/triggerEvents.ts';

const node = { name: 'Trigger', type: 'test', typeVersion: 1, position: [0, 0], parameters: {}, id: 'n' } as INode;
const everything = () => true;

function records(...ids: string[]): IdentifiedRecord[] {
	return ids.map((id) => ({ id, record: { id } }));
}

function range(from: number, to: number): IdentifiedRecord[] {
	return records(...Array.from({ length: to - from + 1 }, (_, index) => `r${from + index}`));
}

describe('poll memory', () => {
	it('remembers everything on the first poll and emits only unknown records later', () => {
		const memory = firstMemory('src', records('a', 'b'));
		expect(memory).toEqual({ source: 'src', ids: ['a', 'b'] });

		const outcome = nextPoll(memory, records('a', 'b', 'c'), everything);
		expect(outcome.emit.map(({ id }) => id)).toEqual(['c']);
		expect(outcome.memory.ids).toEqual(['a', 'b', 'c']);
		expect(nextPoll(outcome.memory, records('a', 'b', 'c'), everything).emit).toEqual([]);
	});

	it('keeps IDs that left the list, so a list that comes back short causes no flood', () => {
		const memory = firstMemory('src', records('a', 'b', 'c'));
		const short = nextPoll(memory, records(), everything);
		expect(short.emit).toEqual([]);
		expect(short.memory.ids).toEqual(['a', 'b', 'c']);
		expect(nextPoll(short.memory, records('a', 'b', 'c'), everything).emit).toEqual([]);
	});

	it('does not remember records the filters refuse, so they are emitted once they match', () => {
		const memory = firstMemory('src', records('a'));
		const queued = { id: 'b', record: { id: 'b', status: 'queued' } };
		const isDone = (record: IDataObject) => record.status === 'completed';

		const first = nextPoll(memory, [...records('a'), queued], isDone);
		expect(first.emit).toEqual([]);
		expect(first.memory.ids).toEqual(['a']);

		const done = { id: 'b', record: { id: 'b', status: 'completed' } };
		const second = nextPoll(first.memory, [...records('a'), done], isDone);
		expect(second.emit).toEqual([done]);
		expect(second.memory.ids).toEqual(['a', 'b']);
	});

	it(`stays within ${MAX_REMEMBERED_IDS} IDs and watches both ends of a longer list`, () => {
		const list = range(1, MAX_REMEMBERED_IDS + 1000);
		const memory = firstMemory('src', list);
		expect(memory.ids).toHaveLength(MAX_REMEMBERED_IDS);
		expect(memory.ids[0]).toBe('r1');
		expect(memory.ids[WATCHED_AT_EACH_END]).toBe(`r${MAX_REMEMBERED_IDS + 1000 - WATCHED_AT_EACH_END + 1}`);

		// New records at either end are found; the unremembered middle is never reported.
		const grown = [...records('new-first'), ...list, ...records('new-last')];
		const outcome = nextPoll(memory, grown, everything);
		expect(outcome.emit.map(({ id }) => id)).toEqual(['new-first', 'new-last']);
		expect(outcome.memory.ids).toHaveLength(MAX_REMEMBERED_IDS);
		expect(nextPoll(outcome.memory, grown, everything).emit).toEqual([]);
	});

	it('makes room for new IDs by dropping departed ones when the memory is full', () => {
		const memory = firstMemory('src', range(1, MAX_REMEMBERED_IDS));
		const next = nextPoll(memory, range(MAX_REMEMBERED_IDS + 1, MAX_REMEMBERED_IDS + 10), everything);
		expect(next.emit).toHaveLength(10);
		expect(next.memory.ids).toHaveLength(MAX_REMEMBERED_IDS);
		expect(next.memory.ids.slice(0, 10)).toEqual(range(MAX_REMEMBERED_IDS + 1, MAX_REMEMBERED_IDS + 10).map(({ id }) => id));
		expect(next.memory.ids).not.toContain(`r${MAX_REMEMBERED_IDS}`);
	});

	it('reads only an intact memory of the same source', () => {
		expect(readMemory({ source: 'src', ids: ['a', 1, 'b'] }, 'src')).toEqual({ source: 'src', ids: ['a', 'b'] });
		expect(readMemory({ source: 'other', ids: ['a'] }, 'src')).toBeUndefined();
		expect(readMemory({ source: 'src' }, 'src')).toBeUndefined();
		expect(readMemory(undefined, 'src')).toBeUndefined();
		expect(readMemory('garbage', 'src')).toBeUndefined();
	});
});

describe('record IDs', () => {
	it('takes string and number IDs, trimmed, and keeps the first of duplicates', () => {
		const identified = identifyRecords(node, [{ id: ' a ' }, { id: 7 }, { id: 'a', copy: true }], 'threats');
		expect(identified).toEqual([
			{ id: 'a', record: { id: ' a ' } },
			{ id: '7', record: { id: 7 } },
		]);
	});

	it.each([[{}], [{ id: '' }], [{ id: null }], [{ id: { nested: 1 } }]])('refuses a record like %j', (record) => {
		expect(() => identifyRecords(node, [{ id: 'a' }, record as IDataObject], 'scans')).toThrow(
			'1 of 2 scans in the list have no "id" field',
		);
	});
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
		expect(readFilters(threatEvent, { severity: ' High, critical ', status: '', unknown: 'x' })).toEqual([
			{ fields: ['severity'], values: ['high', 'critical'] },
		]);
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
