import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { ListReader, type PageRef } from '../../../../nodes/shared/polling/pageWalk.ts';
import type { Wanted } from '../../../../nodes/shared/polling/pollDecisions.ts';
import { pollStatuses } from '../../../../nodes/shared/polling/statusChanges.ts';
import { configurationFingerprint } from '../../../../nodes/shared/polling/pollMemory.ts';
import {
	MAX_WATCHED_RECORDS,
	readStatusMemory,
	storedStatusMemory,
	type StatusMemory,
} from '../../../../nodes/shared/polling/statusMemory.ts';
import { node } from './records.mts';

const change = { field: 'status', previousField: 'previousStatus' };
const any: Wanted = () => true;

/** A reader over `list`, `pageSize` records a page, counting the pages it fetched. */
function reader(list: IDataObject[], pageSize = Number.MAX_SAFE_INTEGER) {
	const fetched: Array<PageRef | undefined> = [];
	const fetchPage = async (ref: PageRef | undefined) => {
		fetched.push(ref);
		const page = Number(ref?.qs?.page ?? 1);
		const next = page * pageSize < list.length ? { qs: { page: page + 1 } } : undefined;
		return { records: list.slice((page - 1) * pageSize, page * pageSize), next };
	};
	return { reader: new ListReader(node, 'Test Service', 'sites', fetchPage, undefined), fetched };
}

function sites(...statuses: string[]): IDataObject[] {
	return statuses.map((status, index) => ({ id: `site_${index + 1}`, status }));
}

async function poll(list: IDataObject[], memory: StatusMemory | undefined, wanted: Wanted = any) {
	return await pollStatuses(reader(list).reader, memory, change, wanted, 'fp');
}

describe('status changes', () => {
	it('remembers on the first poll and emits nothing', async () => {
		const first = await poll(sites('HEALTHY', 'DEGRADED'), undefined);
		expect(first.emit).toEqual([]);
		expect([...first.memory.statuses]).toEqual([
			['site_1', 'HEALTHY'],
			['site_2', 'DEGRADED'],
		]);
	});

	it('emits each change once with the previous status; a record listed for the first time emits nothing', async () => {
		const first = await poll(sites('HEALTHY', 'DEGRADED'), undefined);
		const changed = await poll(sites('CRITICAL', 'DEGRADED', 'PENDING'), first.memory);
		expect(changed.emit).toEqual([{ id: 'site_1', status: 'CRITICAL', previousStatus: 'HEALTHY' }]);
		const again = await poll(sites('CRITICAL', 'DEGRADED', 'PENDING'), changed.memory);
		expect(again.emit).toEqual([]);
	});

	it('remembers a change the filters refuse, so that it is not emitted later', async () => {
		const onlyDegraded = (record: IDataObject) => record.status === 'DEGRADED';
		const first = await poll(sites('HEALTHY'), undefined, onlyDegraded);
		const refused = await poll(sites('CRITICAL'), first.memory, onlyDegraded);
		expect(refused.emit).toEqual([]);
		const wanted = await poll(sites('DEGRADED'), refused.memory, onlyDegraded);
		expect(wanted.emit).toEqual([{ id: 'site_1', status: 'DEGRADED', previousStatus: 'CRITICAL' }]);
	});

	it('forgets records that left a list read whole, and keeps those a cut walk did not read', async () => {
		const first = await poll(sites('HEALTHY', 'HEALTHY'), undefined);
		const shorter = await poll(sites('HEALTHY'), first.memory);
		expect([...shorter.memory.statuses.keys()]).toEqual(['site_1']);

		const cut = { ...first.memory, continueAt: { qs: { page: 2 } } };
		const { reader: paged } = reader(sites('DEGRADED', 'CRITICAL'), 1);
		const goneOn = await pollStatuses(paged, cut, change, any, 'fp');
		expect(goneOn.emit).toEqual([{ id: 'site_2', status: 'CRITICAL', previousStatus: 'HEALTHY' }]);
		expect(goneOn.memory.statuses.get('site_1')).toBe('HEALTHY');
	});

	it(`watches at most ${MAX_WATCHED_RECORDS} records and says how many more are listed`, async () => {
		const many = Array.from({ length: MAX_WATCHED_RECORDS + 3 }, (_, index) => ({
			id: `s${index}`,
			status: 'HEALTHY',
		}));
		const first = await poll(many, undefined);
		expect(first.memory.statuses.size).toBe(MAX_WATCHED_RECORDS);
		expect(first.unwatched).toBe(3);
	});
});

describe('status memory', () => {
	it('stores IDs grouped under their status and reads them back for the same configuration only', () => {
		const fingerprint = configurationFingerprint('configuration');
		const memory: StatusMemory = {
			fingerprint,
			statuses: new Map([
				['site_1', 'HEALTHY'],
				['site_2', 'DEGRADED'],
				['site_3', 'HEALTHY'],
			]),
			continueAt: { qs: { page: 2 } },
		};
		const stored = storedStatusMemory(memory);
		expect(stored).toEqual({
			fingerprint,
			statuses: { HEALTHY: ['site_1', 'site_3'], DEGRADED: ['site_2'] },
			continueAt: { qs: { page: 2 } },
		});
		const read = readStatusMemory(JSON.parse(JSON.stringify(stored)), 'configuration');
		expect(read && [...read.statuses].sort()).toEqual([...memory.statuses].sort());
		expect(read?.continueAt).toEqual({ qs: { page: 2 } });
		expect(readStatusMemory(stored, 'other configuration')).toBeUndefined();
		expect(readStatusMemory({ fingerprint, ids: ['site_1'] }, 'configuration')).toBeUndefined();
	});
});
