/**
 * The cases of issue 37 and the counterexamples the model (newRecords.model.test.mts) found, each
 * as a plain example.
 */
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import type { RecordFilter } from '../../../../nodes/shared/polling/listRecords.ts';
import { newestNewRecord, pollNewRecords } from '../../../../nodes/shared/polling/newRecords.ts';
import { listOf } from '../../../support/polling/records.mts';

const EPOCH = 1_700_000_000_000;

/** Records n<from> … n<to> dated a second apart, newest first. */
function newestFirst(from: number, to: number, extra: IDataObject = {}): IDataObject[] {
	return Array.from({ length: to - from + 1 }, (_, index) => ({
		id: `x${to - index}q`,
		createdAt: EPOCH + (to - index) * 1000,
		...extra,
	}));
}

/** Opaque IDs, no dates: no visible order. */
function opaque(from: number, to: number): IDataObject[] {
	return Array.from({ length: to - from + 1 }, (_, index) => ({
		id: `k${((from + index) * 7919) % 100_003}x${from + index}q`,
	}));
}

/** Polls `list` over `polls` memories: each poll's memory goes on to the next; the IDs each emitted. */
class Poller {
	memory: IDataObject | undefined;
	constructor(private readonly filters: RecordFilter[] = []) {}
	async poll(list: IDataObject[], pageSize?: number, budgetMs?: number) {
		const read = listOf(list, { pageSize, budgetMs });
		const result = await pollNewRecords(read.list, this.memory, 'c', this.filters);
		this.memory = JSON.parse(JSON.stringify(result.memory)) as IDataObject;
		return {
			ids: result.records.map(({ id }) => id as string),
			pages: read.fetched.length,
			warning: result.warning,
		};
	}
}

describe('issue 37: each record once', () => {
	it('a burst read a page per poll (the poll budget) is emitted once, not again', async () => {
		const poller = new Poller();
		await poller.poll(newestFirst(1, 500), 1000, 0);
		const list = newestFirst(1, 3500);
		const emitted: string[] = [];
		for (let poll = 0; poll < 8; poll++) emitted.push(...(await poller.poll(list, 1000, 0)).ids);
		expect(emitted.length).toBe(3000);
		expect(new Set(emitted).size).toBe(3000);
	});

	it('a batch listed oldest first on the top page of a newest-first list does not re-emit the list', async () => {
		const poller = new Poller();
		await poller.poll(newestFirst(1, 120), 10);
		const batch = newestFirst(121, 130).reverse();
		const list = [...batch, ...newestFirst(1, 120)];
		expect((await poller.poll(list, 10)).ids).toHaveLength(10);
		expect((await poller.poll(list, 10)).ids).toEqual([]);
		expect((await poller.poll(list, 10)).pages).toBeLessThanOrEqual(2);
	});

	it('a long list in no visible order, read in parts, emits nothing old', async () => {
		const poller = new Poller();
		const list = opaque(1, 3000);
		for (let poll = 0; poll < 6; poll++) expect((await poller.poll(list, 1500, 0)).ids).toEqual([]);
		const added = [...list.slice(0, 1700), ...opaque(3001, 3001), ...list.slice(1700)];
		const emitted: string[] = [];
		for (let poll = 0; poll < 3; poll++) emitted.push(...(await poller.poll(added, 1500, 0)).ids);
		expect(emitted).toEqual([opaque(3001, 3001)[0].id]);
	});

	it('records leaving a long list in no visible order emit nothing', async () => {
		const poller = new Poller();
		await poller.poll(opaque(1, 2000));
		expect((await poller.poll(opaque(1, 1950))).ids).toEqual([]);
	});

	it('a record inserted inside a short list sorted by name is emitted', async () => {
		const poller = new Poller();
		const named = (...ids: string[]) => ids.map((id) => ({ id }));
		await poller.poll(named('b', 'd', 'f'));
		expect((await poller.poll(named('a', 'b', 'd', 'f'))).ids).toEqual(['a']);
		expect((await poller.poll(named('a', 'b', 'd', 'e', 'f'))).ids).toEqual(['e']);
	});

	it('a filtered oldest-first list with more than 200 refused records is not read whole each poll', async () => {
		const poller = new Poller([{ fields: ['severity'], values: ['high'] }]);
		const oldestFirst = (from: number, to: number) =>
			newestFirst(from, to, { severity: 'low' }).reverse();
		await poller.poll(oldestFirst(1, 100), 10);
		const list = oldestFirst(1, 400);
		await poller.poll(list, 10);
		await poller.poll(list, 10);
		expect((await poller.poll(list, 10)).pages).toBeLessThanOrEqual(2);
	});

	it('Fetch Test Event finds the newest matching record on a later page of a newest-first list', async () => {
		const list = [
			...newestFirst(11, 20, { severity: 'low' }),
			...newestFirst(1, 10, { severity: 'high' }),
		];
		const filters = [{ fields: ['severity'], values: ['high'] }];
		const newest = await newestNewRecord(listOf(list, { pageSize: 10 }).list, filters);
		expect(newest?.id).toBe('x10q');
	});

	it('New Audit: an audit dated the second of the newest one seen is emitted when more than the window arrives', async () => {
		const poller = new Poller();
		await poller.poll(newestFirst(1, 100));
		const sameSecond = { id: 'same', createdAt: EPOCH + 100 * 1000 };
		const list = [...newestFirst(101, 200), sameSecond, ...newestFirst(1, 100)].slice(0, 100);
		const window = [...list.slice(0, 99), sameSecond];
		expect((await poller.poll(window)).ids).toContain('same');
	});

	it('a first list whose records are out of order (a batch) teaches no order: later pages are still read (found by the model)', async () => {
		const poller = new Poller();
		// Oldest first, but the first 12 records were listed rotated: 7 … 12, 1 … 6.
		const first = newestFirst(1, 12).reverse();
		const rotated = [...first.slice(6), ...first.slice(0, 6)];
		await poller.poll(rotated, 100);
		const list = [...rotated, ...newestFirst(13, 101).reverse()];
		const emitted = [...(await poller.poll(list, 100)).ids, ...(await poller.poll(list, 100)).ids];
		expect(emitted).toHaveLength(89);
		expect(emitted).toContain('x101q');
	});

	it('a first page that turns back does not end the first read: records on later pages are not new (found by the model)', async () => {
		const poller = new Poller();
		const [r1, r2, r3, r4] = newestFirst(1, 4).reverse();
		const list = [r3, r1, r2, r4];
		await poller.poll(list, 3);
		expect((await poller.poll(list, 3)).ids).toEqual([]);
	});

	it('a first list that is one batch listed against the order over several pages teaches no order: a new record on top is emitted (found by the model)', async () => {
		const poller = new Poller();
		// Newest first, but the first 101 records were listed oldest first.
		const batch = newestFirst(1, 101).reverse();
		await poller.poll(batch, 100);
		expect((await poller.poll([...newestFirst(102, 102), ...batch], 100)).ids).toEqual(['x102q']);
	});

	it('the same, oldest first: a first list listed newest first over several pages, a new record at its end is emitted (found by the model)', async () => {
		const poller = new Poller();
		const batch = newestFirst(1, 101);
		await poller.poll(batch, 100);
		expect((await poller.poll(batch, 100)).pages).toBeLessThanOrEqual(2);
		expect((await poller.poll([...batch, ...newestFirst(102, 102)], 100)).ids).toEqual(['x102q']);
	});

	it('a record added on top while a burst is read in parts pushes none it read into the rest of the read (found by the model)', async () => {
		const poller = new Poller();
		await poller.poll(newestFirst(1, 150), 1500);
		const emitted = [...(await poller.poll(newestFirst(1, 1650), 1500, 0)).ids];
		for (let poll = 0; poll < 3; poll++) {
			emitted.push(...(await poller.poll(newestFirst(1, 1651), 1500, 0)).ids);
		}
		expect(emitted).toHaveLength(1501);
		expect(new Set(emitted).size).toBe(1501);
	});

	it('a numbered list first read as one batch in no order, then past 5,000 records when new ones teach its order: they are emitted (found by the model)', async () => {
		const numbered = (from: number, to: number) =>
			Array.from({ length: to - from + 1 }, (_, index) => ({ id: `thr_${to - index}` }));
		const poller = new Poller();
		// Newest first, but the first 3,000 were listed rotated: no order shown, every ID remembered.
		await poller.poll([...numbered(1, 1500), ...numbered(1501, 3000)], 100);
		const list = [...numbered(3001, 5001), ...numbered(1, 1500), ...numbered(1501, 3000)];
		const { ids: emitted, warning } = await poller.poll(list, 100);
		expect(emitted).toHaveLength(2001);
		expect(emitted[0]).toBe('thr_5001');
		// The order learnt, the length is no longer a limit: no warning.
		expect(warning).toBeUndefined();
		expect(await poller.poll(list, 100)).toEqual({ ids: [], pages: 1, warning: undefined });
	});

	it('an empty first list, then over 5,000 dated records at once: each is emitted (found by the model, against a first fix of the case before)', async () => {
		const poller = new Poller();
		await poller.poll([], 100);
		const { ids, warning } = await poller.poll(newestFirst(1, 5001), 100);
		expect(ids).toHaveLength(5001);
		// Their dates show the order: the length is no longer a limit.
		expect(warning).toBeUndefined();
	});

	it('a batch in any order added on top while a read goes on in parts is emitted whole (found by the model)', async () => {
		const poller = new Poller();
		await poller.poll(newestFirst(1, 30), 10);
		const first = newestFirst(31, 40);
		const emitted = [...(await poller.poll([...first, ...newestFirst(1, 30)], 10, 0)).ids];
		const batch = newestFirst(41, 51);
		const shuffled = [...batch.slice(5), ...batch.slice(0, 5)].reverse();
		const list = [...shuffled, ...first, ...newestFirst(1, 30)];
		for (let poll = 0; poll < 4; poll++) emitted.push(...(await poller.poll(list, 10)).ids);
		expect([...emitted].sort()).toEqual([...first, ...batch].map(({ id }) => id as string).sort());
	});
});
