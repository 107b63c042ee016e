import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it, vi } from 'vitest';

import {
	identifyRecords,
	isNewSince,
	ListReader,
	matchesFilters,
	newestOf,
	newestRecord,
	orderOf,
	type IdentifiedRecord,
} from '../../../../nodes/shared/polling/listRecords.ts';
import { listOf, records } from '../../../support/polling/records.mts';

const { list: threats } = listOf([]);

describe('record IDs', () => {
	it('takes string and number IDs, trimmed', () => {
		const identified = identifyRecords(threats, [{ id: ' a ' }, { id: 7 }]);
		expect(identified).toEqual([
			{ id: 'a', record: { id: ' a ' } },
			{ id: '7', record: { id: 7 } },
		]);
	});

	it.each([[{}], [{ id: '' }], [{ id: null }], [{ id: { nested: 1 } }]])(
		'refuses a record like %j',
		(record) => {
			expect(() => identifyRecords(threats, [{ id: 'a' }, record as IDataObject])).toThrow(
				'1 of 2 records in the list have no "id" field',
			);
		},
	);

	it('names the fields of the first record without an ID, at most 10', () => {
		const fields = Object.fromEntries('abcdefghijk'.split('').map((key) => [key, 1]));
		const error = (() => {
			try {
				identifyRecords(threats, [fields, {}]);
			} catch (caught) {
				return caught as { description?: string };
			}
			return undefined;
		})();
		expect(error?.description).toBe(
			'Nothing was emitted and the trigger\'s memory is unchanged. Fields of the first record without an ID: a, b, c, d, e, f, g, h, i, j. Check that the base URL in the credential points at the Test Service API; if the service lists records without IDs, use the Test Service node\'s "Get Many" on a schedule instead.',
		);
		expect(() => identifyRecords(threats, [{}])).toThrow(
			expect.objectContaining({
				description: expect.stringContaining('without an ID: none.') as string,
			}) as Error,
		);
	});
});

describe('list order', () => {
	it('is told by dates (else ID numbers) on which the ends and the newest and oldest agree, else not at all', () => {
		const at = (...times: number[]) =>
			times.map((createdAt, index) => ({ id: 'xyzwv'[index], record: { createdAt } }));
		expect(orderOf(at(1, 2, 2, 3))).toBe('oldestFirst');
		expect(orderOf(at(3, 2, 1))).toBe('newestFirst');
		// A batch listed in any order at the new end (issue 37: it used to hide the order).
		expect(orderOf(at(1, 3, 2))).toBe('oldestFirst');
		expect(orderOf(at(4, 5, 3, 2, 1))).toBe('newestFirst');
		// The ends and the newest and oldest disagree.
		expect(orderOf(at(3, 1, 5, 2))).toBeUndefined();
		expect(orderOf(at(2, 5, 1, 3))).toBeUndefined();
		expect(orderOf(at(2, 2))).toBeUndefined();
		// Ends of one rank tell no order, wherever the newest and oldest are.
		expect(orderOf(at(2, 3, 1, 2))).toBeUndefined();
		expect(orderOf(at(2, 1, 3, 2))).toBeUndefined();
		expect(orderOf(records('thr_9', 'thr_10', 'thr_11'))).toBe('oldestFirst');
		expect(orderOf(records('thr_11', 'thr_2'))).toBe('newestFirst');
		expect(orderOf(records('a1', 'b2'))).toBeUndefined();
		// The prefix is all before the number, a line break too.
		expect(orderOf(records('a\nx_2', 'b\nx_1'))).toBeUndefined();
		expect(orderOf(records('thr_1'))).toBeUndefined();
	});

	it('of records that may be one batch, only when no record turns back against it', () => {
		const at = (...times: number[]) =>
			times.map((createdAt, index) => ({ id: 'xyzwv'[index], record: { createdAt } }));
		expect(orderOf(at(5, 3, 4, 1))).toBe('newestFirst');
		expect(orderOf(at(5, 3, 4, 1), true)).toBeUndefined();
		expect(orderOf(at(1, 4, 3, 5), true)).toBeUndefined();
		expect(orderOf(at(5, 3, 3, 1), true)).toBe('newestFirst');
		expect(orderOf(at(1, 3, 5), true)).toBe('oldestFirst');
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
		const tied = [
			{ id: 'first', record: { createdAt: 5 } },
			{ id: 'second', record: { createdAt: 5 } },
		];
		expect(newestRecord(tied)?.id).toBe('first');
	});
});

describe('newer than', () => {
	const at = (id: string, createdAt?: number) => ({ id, record: { id, createdAt } });

	it('compares dates when the record has one and a date is known (the same second: by the IDs read in it), else the numbers ending IDs', () => {
		expect(isNewSince(at('a', 5), { time: 4 })).toBe(true);
		expect(isNewSince(at('a', 5), { time: 5, ids: ['a'] })).toBe(false);
		expect(isNewSince(at('b', 5), { time: 5, ids: ['a'] })).toBe(true);
		expect(isNewSince(at('b', 5), { time: 5 })).toBe(true);
		expect(isNewSince(at('a', 5), { time: 6, number: 1 })).toBe(false);
		expect(isNewSince(at('x_3'), { time: 6, number: 2 })).toBe(true);
		expect(isNewSince(at('x_2'), { number: 2 })).toBe(false);
		expect(isNewSince(at('opaque'), { number: 2 })).toBe(true);
		expect(isNewSince(at('x_3'), {})).toBe(true);
		// Dated, but no date to compare with: the ID number decides.
		expect(isNewSince(at('x_3', 5), { number: 2 })).toBe(true);
		expect(isNewSince(at('x_3', 5), { number: 3 })).toBe(false);
	});

	it('keeps the newest date with the IDs read in it, and the highest number of an undated ID', () => {
		const read = [at('a', 5), at('x_9'), at('b', 7), at('c', 7), at('b', 7), at('x_4'), at('d', 6)];
		expect(newestOf(read, {})).toEqual({ time: 7, ids: ['b', 'c'], number: 9 });
		expect(newestOf([at('e', 7)], { time: 7, ids: ['b'], number: 2 })).toEqual({
			time: 7,
			ids: ['b', 'e'],
			number: 2,
		});
		expect(newestOf([at('opaque')], {})).toEqual({ time: undefined, ids: [], number: undefined });
	});
});

describe('record filters', () => {
	it('match case-insensitively, by any of the names a field may carry, and refuse records without the field', () => {
		const filters = [
			{ fields: ['severity'], values: ['high'] },
			{ fields: ['siteId', 'site_id'], values: ['st_1'] },
		];
		expect(matchesFilters({ severity: 'HIGH', siteId: 'st_1' }, filters)).toBe(true);
		expect(matchesFilters({ severity: ' high ', site_id: 'ST_1' }, filters)).toBe(true);
		expect(matchesFilters({ severity: 'low', siteId: 'st_1' }, filters)).toBe(false);
		expect(matchesFilters({ siteId: 'st_1' }, filters)).toBe(false);
		expect(matchesFilters({ severity: { level: 'high' }, siteId: 'st_1' }, filters)).toBe(false);
		expect(matchesFilters({ severity: ['high'], siteId: 'st_1' }, filters)).toBe(false);
		expect(matchesFilters({ code: 7 }, [{ fields: ['code'], values: ['7'] }])).toBe(true);
		expect(matchesFilters({ active: true }, [{ fields: ['active'], values: ['true'] }])).toBe(true);
		expect(matchesFilters({ anything: 1 }, [])).toBe(true);
	});
});

describe('list reader', () => {
	const list = Array.from({ length: 5 }, (_, index) => ({ id: `r${index + 1}` }));

	it('reads page after page to the end, each record once, and stops at the first page holding a record it is to stop at', async () => {
		const { list: paged, fetched } = listOf([...list, { id: 'r1' }], { pageSize: 2 });
		const whole = await new ListReader(paged).read();
		expect(whole.records.map(({ id }) => id)).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
		expect(whole.resumeAt).toBeUndefined();
		expect(whole.next).toBeUndefined();
		expect(fetched).toEqual([undefined, { qs: { page: 2 } }, { qs: { page: 3 } }]);
		// The first of duplicates on one page, too.
		const onePage = await new ListReader(
			listOf([{ id: 'a' }, { id: 'a', copy: true }]).list,
		).read();
		expect(onePage.records).toEqual([{ id: 'a', record: { id: 'a' } }]);

		const first = await new ListReader(paged).read(undefined, { old: ({ id }) => id === 'r3' });
		const dated = (id: string, createdAt: number) => ({ id, createdAt });
		// Only the list's first page may stop a read for showing the newest records first.
		const later = listOf([{ id: 'a' }, ...[4, 3, 2, 1].map((n) => dated(`n${n}`, n))], {
			pageSize: 2,
		});
		await new ListReader(later.list).read(undefined, { newestFirstStart: true });
		expect(later.fetched).toHaveLength(3);
		const newest = listOf([dated('n4', 4), dated('n3', 3), dated('n2', 2)], { pageSize: 2 });
		await new ListReader(newest.list).read(undefined, { newestFirstStart: true });
		expect(newest.fetched).toEqual([undefined]);
		// Nor a first page whose dates turn back.
		const turning = listOf(
			[5, 3, 4, 1, 9].map((n) => dated(`t${n}`, n)),
			{ pageSize: 4 },
		);
		await new ListReader(turning.list).read(undefined, { newestFirstStart: true });
		expect(turning.fetched).toEqual([undefined, { qs: { page: 2 } }]);
		expect(first.pages.map(({ at }) => at)).toEqual([undefined, { qs: { page: 2 } }]);
		expect(first.resumeAt).toBeUndefined();
		// The page after the one that stopped it, where the list goes on.
		expect(first.next).toEqual({ qs: { page: 3 } });
		const last = await new ListReader(paged).read(undefined, { old: ({ id }) => id === 'r5' });
		expect(last.next).toBeUndefined();
	});

	it('counts the time of the slowest page so far', async () => {
		vi.useFakeTimers({ now: 0, toFake: ['Date'] });
		try {
			const { list: slow } = listOf(list, { pageSize: 1, budgetMs: 100 });
			const read = slow.readPage;
			const times = [10, 30, 10, 10];
			slow.readPage = async (at) => {
				vi.setSystemTime(Date.now() + (times.shift() ?? 0));
				return await read(at);
			};
			// 10 ms, then 40 ms + 2 × 30 ms = 100 ms: no time for a third page.
			const cut = await new ListReader(slow).read();
			expect(cut.pages).toHaveLength(2);
		} finally {
			vi.useRealTimers();
		}
	});

	it('reads the first page, then goes on only while twice its slowest page fits in the budget', async () => {
		const { list: budgeted, fetched } = listOf(list, { pageSize: 2, budgetMs: 0 });
		const reader = new ListReader(budgeted);
		const cut = await reader.read();
		expect(fetched).toHaveLength(1);
		// Cut short after the list's first page: it goes on there (`{}`).
		expect(cut.resumeAt).toEqual({});
		expect(reader.hasTime()).toBe(false);

		const roomy = new ListReader(listOf(list, { pageSize: 2, budgetMs: 60_000 }).list);
		expect((await roomy.read()).resumeAt).toBeUndefined();
	});

	it('reads at most 1,000 pages at a time; a manual run reads them all', async () => {
		const long = Array.from({ length: 2001 }, (_, index) => ({ id: `r${index + 1}` }));
		const cut = await new ListReader(listOf(long, { pageSize: 1 }).list).read();
		expect(cut.pages).toHaveLength(1000);
		// It goes on at the page it read last.
		expect(cut.resumeAt).toEqual({ qs: { page: 1000 } });
		const whole = await new ListReader(listOf(long, { pageSize: 1 }).list, Infinity).read();
		expect(whole.records).toHaveLength(2001);
	});

	it('goes on with a read cut short at the page it read last, then one page more at least', async () => {
		const { list: budgeted, fetched } = listOf(list, { pageSize: 1, budgetMs: 0 });
		const knows =
			(...ids: string[]) =>
			({ id }: IdentifiedRecord) =>
				ids.includes(id);
		// Cut after the list's first page: from the start.
		const fromStart = await new ListReader(budgeted).goOn({}, knows());
		expect(fetched).toEqual([undefined, { qs: { page: 2 } }]);
		expect(fromStart.resumeAt).toEqual({ qs: { page: 2 } });
		fetched.length = 0;
		const goneOn = await new ListReader(budgeted).goOn({ qs: { page: 2 } }, knows('r2'));
		expect(fetched).toEqual([{ qs: { page: 2 } }, { qs: { page: 3 } }]);
		expect(goneOn.records.map(({ id }) => id)).toEqual(['r2', 'r3']);
		expect(goneOn.restarted).toBeUndefined();
		// A page holding a record read before and others did not move past the read.
		const { list: pairs } = listOf(list, { pageSize: 2, budgetMs: 0 });
		const shifted = await new ListReader(pairs).goOn({ qs: { page: 2 } }, knows('r3', 'x'));
		expect(shifted.restarted).toBeUndefined();
		expect(shifted.records.map(({ id }) => id)).toEqual(['r3', 'r4', 'r5']);
		// A page holding none of them: the list moved by a page or more, the read begins again.
		fetched.length = 0;
		const moved = await new ListReader(budgeted).goOn({ qs: { page: 2 } }, knows('r1'));
		expect(fetched).toEqual([{ qs: { page: 2 } }, undefined]);
		expect(moved.restarted).toBe(true);
		expect(moved.records.map(({ id }) => id)).toEqual(['r1']);
		// A page named by a link (no query) goes on there too.
		const links: Array<string | undefined> = [];
		const linked = {
			...budgeted,
			readPage: async (at?: { url?: string }) => {
				links.push(at?.url);
				const number = Number(at?.url?.split('=')[1] ?? 1);
				const next = number < 5 ? { url: `/records?page=${number + 1}` } : undefined;
				return await Promise.resolve({ records: [list[number - 1]], next });
			},
		};
		await new ListReader(linked).goOn({ url: '/records?page=2' }, knows('r2'));
		expect(links).toEqual(['/records?page=2', '/records?page=3']);
		// A stale page: from the start, to the page it is to stop at.
		const stale = listOf(list, { pageSize: 1 });
		const old = ({ id }: IdentifiedRecord) => id === 'r3';
		const again = await new ListReader(stale.list).goOn({ qs: { cursor: 'gone' } }, knows(), {
			old,
		});
		expect(stale.fetched).toEqual([
			{ qs: { cursor: 'gone' } },
			undefined,
			{ qs: { page: 2 } },
			{ qs: { page: 3 } },
		]);
		expect(again.next).toEqual({ qs: { page: 4 } });
	});

	it('reads from the start, or the page it is to begin again at, when the service refuses a remembered page as stale, and fails on other errors', async () => {
		const { list: stale, fetched } = listOf(list, { pageSize: 2 });
		const restarted = await new ListReader(stale).read({ qs: { cursor: 'gone' } });
		expect(restarted.fromStart).toBe(true);
		expect(fetched).toEqual([
			{ qs: { cursor: 'gone' } },
			undefined,
			{ qs: { page: 2 } },
			{ qs: { page: 3 } },
		]);
		expect(restarted.records).toHaveLength(5);
		expect(restarted.restarted).toBe(true);
		const read = await new ListReader(stale).read({ qs: { page: 2 } });
		expect(read.fromStart).toBe(false);
		expect(read.restarted).toBeUndefined();
		// Or at the page it is given to begin again at.
		fetched.length = 0;
		const after = await new ListReader(stale).read(
			{ qs: { cursor: 'gone' } },
			{},
			{ qs: { page: 2 } },
		);
		expect(fetched).toEqual([{ qs: { cursor: 'gone' } }, { qs: { page: 2 } }, { qs: { page: 3 } }]);
		expect(after.restarted).toBe(true);
		expect(after.fromStart).toBe(false);
		expect(after.records.map(({ id }) => id)).toEqual(['r3', 'r4', 'r5']);

		let requests = 0;
		const failing = listOf(list).list;
		failing.readPage = async () => {
			requests++;
			return await Promise.reject(Object.assign(new Error('gone'), { httpCode: '404' }));
		};
		await expect(new ListReader(failing).read()).rejects.toThrow('gone');
		expect(requests).toBe(1);
		failing.readPage = async () =>
			await Promise.reject(Object.assign(new Error('down'), { httpCode: '503' }));
		await expect(new ListReader(failing).read({ qs: { page: 2 } })).rejects.toThrow('down');
	});
});
