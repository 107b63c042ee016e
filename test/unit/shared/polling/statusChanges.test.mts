import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import type { PollResult, RecordFilter } from '../../../../nodes/shared/polling/listRecords.ts';
import { newestStatus, pollStatusChanges } from '../../../../nodes/shared/polling/statusChanges.ts';
import { listOf } from '../../../support/polling/records.mts';

const change = { field: 'status', previousField: 'previousStatus' };
const CONFIGURATION = 'configuration';

function sites(...statuses: string[]): IDataObject[] {
	return statuses.map((status, index) => ({ id: `site_${index + 1}`, status }));
}

async function poll(
	list: IDataObject[],
	stored: IDataObject | undefined,
	filters: RecordFilter[] = [],
	pageSize?: number,
): Promise<PollResult> {
	return await pollStatusChanges(
		listOf(list, { pageSize }).list,
		stored,
		CONFIGURATION,
		change,
		filters,
	);
}

const onlyDegraded = [{ fields: ['status'], values: ['degraded'] }];

describe('status changes', () => {
	it('remembers on the first poll, IDs grouped under their status, and emits nothing', async () => {
		const first = await poll(sites('HEALTHY', 'DEGRADED', 'HEALTHY'), undefined);
		expect(first.records).toEqual([]);
		expect(first.memory).toEqual({
			fingerprint: expect.stringMatching(/^[0-9a-f]{32}$/) as string,
			statuses: { HEALTHY: ['site_1', 'site_3'], DEGRADED: ['site_2'] },
		});
	});

	it('emits each change once with the previous status; a record listed for the first time emits nothing', async () => {
		const first = await poll(sites('HEALTHY', 'DEGRADED'), undefined);
		const changed = await poll(sites('CRITICAL', 'DEGRADED', 'PENDING'), first.memory);
		expect(changed.records).toEqual([
			{ id: 'site_1', status: 'CRITICAL', previousStatus: 'HEALTHY' },
		]);
		const again = await poll(sites('CRITICAL', 'DEGRADED', 'PENDING'), changed.memory);
		expect(again.records).toEqual([]);
	});

	it('a change of case alone is no change (issue 37, found by the model)', async () => {
		const first = await poll(sites('HEALTHY'), undefined);
		const lower = await poll(sites('healthy'), first.memory);
		expect(lower.records).toEqual([]);
		const changed = await poll(sites('CRITICAL'), lower.memory);
		expect(changed.records).toEqual([
			{ id: 'site_1', status: 'CRITICAL', previousStatus: 'healthy' },
		]);
	});

	it('a status missing for a poll keeps the one remembered (issue 37: the next change counted as a first listing)', async () => {
		const first = await poll(sites('HEALTHY'), undefined);
		const missing = await poll([{ id: 'site_1' }], first.memory);
		expect(missing.records).toEqual([]);
		const changed = await poll(sites('CRITICAL'), missing.memory);
		expect(changed.records).toEqual([
			{ id: 'site_1', status: 'CRITICAL', previousStatus: 'HEALTHY' },
		]);
	});

	it('starts over for a memory of another configuration', async () => {
		const first = await poll(sites('HEALTHY'), undefined);
		const other = await pollStatusChanges(
			listOf(sites('CRITICAL')).list,
			first.memory,
			'other',
			change,
			[],
		);
		expect(other.records).toEqual([]);
	});

	it('remembers a change the filters refuse, so that it is not emitted later', async () => {
		const first = await poll(sites('HEALTHY'), undefined, onlyDegraded);
		const refused = await poll(sites('CRITICAL'), first.memory, onlyDegraded);
		expect(refused.records).toEqual([]);
		const wanted = await poll(sites('DEGRADED'), refused.memory, onlyDegraded);
		expect(wanted.records).toEqual([
			{ id: 'site_1', status: 'DEGRADED', previousStatus: 'CRITICAL' },
		]);
	});

	it('forgets records that left a list read whole, and keeps those a cut read did not reach', async () => {
		const first = await poll(sites('HEALTHY', 'HEALTHY'), undefined);
		const shorter = await poll(sites('HEALTHY'), first.memory);
		expect(shorter.memory.statuses).toEqual({ HEALTHY: ['site_1'] });

		const cut = { ...first.memory, resumeAt: { qs: { page: 2 } } };
		const goneOn = await poll(sites('DEGRADED', 'CRITICAL'), cut, [], 1);
		expect(goneOn.records).toEqual([
			{ id: 'site_2', status: 'CRITICAL', previousStatus: 'HEALTHY' },
		]);
		expect(goneOn.memory.statuses).toEqual({ CRITICAL: ['site_2'], HEALTHY: ['site_1'] });
	});

	it('reads the list from its start again when the remembered page is stale, and then forgets records that left it', async () => {
		const remembered = {
			...(await poll(sites('HEALTHY', 'HEALTHY', 'HEALTHY'), undefined)).memory,
			resumeAt: { qs: { cursor: 'gone' } },
		};
		const { list, fetched } = listOf(sites('DEGRADED', 'HEALTHY'), { pageSize: 1 });
		const restarted = await pollStatusChanges(list, remembered, CONFIGURATION, change, []);
		expect(fetched).toEqual([{ qs: { cursor: 'gone' } }, undefined, { qs: { page: 2 } }]);
		expect(restarted.records).toEqual([
			{ id: 'site_1', status: 'DEGRADED', previousStatus: 'HEALTHY' },
		]);
		expect(restarted.memory.statuses).toEqual({ DEGRADED: ['site_1'], HEALTHY: ['site_2'] });
	});

	it('goes on where a poll ran out of time', async () => {
		const { list, fetched } = listOf(sites('HEALTHY', 'HEALTHY', 'HEALTHY'), {
			pageSize: 1,
			budgetMs: 0,
		});
		const first = await pollStatusChanges(list, undefined, CONFIGURATION, change, []);
		// Cut short after the list's first page: it goes on there (`{}`).
		expect(first.memory.resumeAt).toEqual({});
		expect(first.memory.statuses).toEqual({ HEALTHY: ['site_1'] });
		// The next poll reads that page again, then one page more.
		const next = await pollStatusChanges(list, first.memory, CONFIGURATION, change, []);
		expect(fetched.slice(1)).toEqual([undefined, { qs: { page: 2 } }]);
		expect(next.memory.resumeAt).toEqual({ qs: { page: 2 } });
		expect(next.memory.statuses).toEqual({ HEALTHY: ['site_1', 'site_2'] });
	});

	it('reads from the start when the page it goes on at holds no record it knows (the list moved)', async () => {
		const all = sites('HEALTHY', 'HEALTHY', 'HEALTHY', 'HEALTHY');
		const first = await pollStatusChanges(
			listOf(all, { pageSize: 1, budgetMs: 0 }).list,
			undefined,
			CONFIGURATION,
			change,
			[],
		);
		const { list: twoRead } = listOf(all, { pageSize: 1, budgetMs: 0 });
		const second = await pollStatusChanges(twoRead, first.memory, CONFIGURATION, change, []);
		expect(second.memory.resumeAt).toEqual({ qs: { page: 2 } });
		// site_1 left, so page 2 holds site_3, never read: site_2 moved onto page 1.
		const moved = [{ ...all[1], status: 'DEGRADED' }, ...all.slice(2)];
		const { list, fetched } = listOf(moved, { pageSize: 1, budgetMs: 0 });
		const third = await pollStatusChanges(list, second.memory, CONFIGURATION, change, []);
		expect(fetched).toEqual([{ qs: { page: 2 } }, undefined]);
		expect(third.records).toEqual([
			{ id: 'site_2', status: 'DEGRADED', previousStatus: 'HEALTHY' },
		]);
	});

	it('watches at most 5,000 records and warns how many more are listed', async () => {
		const many = Array.from({ length: 5003 }, (_, index) => ({
			id: `s${index}`,
			status: 'HEALTHY',
		}));
		const first = await poll(many, undefined);
		expect((first.memory.statuses as { HEALTHY: string[] }).HEALTHY).toHaveLength(5000);
		expect(first.warning).toBe(
			'Trigger: the list holds 3 more records than the trigger watches; their status changes are not emitted.',
		);
		many[5000].status = 'CRITICAL';
		expect((await poll(many, first.memory)).records).toEqual([]);
		expect((await poll(many.slice(0, 5000), undefined)).warning).toBeUndefined();
	});
});

describe('status memory', () => {
	it('skips what it cannot read, and records without a status', async () => {
		const fingerprint = (await poll([], undefined)).memory.fingerprint;
		const stored = { fingerprint, statuses: { HEALTHY: 5, DEGRADED: ['site_1', 7] } };
		const next = await poll([...sites('CRITICAL'), { id: 'site_2' }], stored);
		expect(next.records).toEqual([
			{ id: 'site_1', status: 'CRITICAL', previousStatus: 'DEGRADED' },
		]);
		expect(next.memory.statuses).toEqual({ CRITICAL: ['site_1'] });
	});

	it('keeps at most 5,000 statuses when a read cut short adds to those remembered', async () => {
		const many = Array.from({ length: 5000 }, (_, index) => `s${index}`);
		const fingerprint = (await poll([], undefined)).memory.fingerprint;
		const stored = { fingerprint, statuses: { HEALTHY: many } };
		const { list } = listOf(sites('NEW', 'NEW'), { pageSize: 1, budgetMs: 0 });
		const cut = await pollStatusChanges(list, stored, CONFIGURATION, change, []);
		const kept = cut.memory.statuses as Record<string, string[]>;
		expect(kept.NEW).toEqual(['site_1']);
		expect(kept.HEALTHY).toHaveLength(4999);

		const unreadable = { fingerprint, statuses: { HEALTHY: ['s1', 7] } };
		const cutAgain = await pollStatusChanges(list, unreadable, CONFIGURATION, change, []);
		expect(cutAgain.memory.statuses).toEqual({ NEW: ['site_1'], HEALTHY: ['s1'] });
	});

	it('emits no change of a record beyond the 5,000 it watches', async () => {
		const many = Array.from({ length: 5001 }, (_, index) => ({
			id: `s${index}`,
			status: 'HEALTHY',
		}));
		many[5000].status = 'CRITICAL';
		const fingerprint = (await poll([], undefined)).memory.fingerprint;
		const next = await poll(many, { fingerprint, statuses: { HEALTHY: ['s5000'] } });
		expect(next.records).toEqual([]);
	});
});

describe('status change test event', () => {
	it('is the newest listed record the filters accept, with its remembered status as the previous one', async () => {
		const first = await poll(sites('HEALTHY', 'HEALTHY', 'HEALTHY', 'HEALTHY'), undefined);
		const now = sites('DEGRADED', 'DEGRADED', 'DEGRADED', 'CRITICAL');
		expect(
			await newestStatus(listOf(now).list, first.memory, CONFIGURATION, change, onlyDegraded),
		).toEqual({
			id: 'site_3',
			status: 'DEGRADED',
			previousStatus: 'HEALTHY',
		});
		expect(
			await newestStatus(listOf(now).list, undefined, CONFIGURATION, change, onlyDegraded),
		).toEqual({
			id: 'site_3',
			status: 'DEGRADED',
			previousStatus: null,
		});
		expect(
			await newestStatus(listOf(now).list, first.memory, CONFIGURATION, change, [
				{ fields: ['status'], values: ['x'] },
			]),
		).toBeUndefined();
	});
});
