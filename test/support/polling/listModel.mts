/**
 * The model of a list service and of n8n polling it, for the poll engine's model-based tests
 * (newRecords.model.test.mts). `ListWorld` holds the real list and an oracle that knows every
 * record's history; each command changes the list or polls it through `pollNewRecords`, and every
 * poll is checked against the promise written in docs/design.md ("Poll triggers"):
 * - never emitted twice; never emitted when listed at publishing or at the last configuration
 *   change (or added before that configuration's first poll); only records the filters accept;
 * - a record the promise covers that stays listed is emitted by the end of the second poll not cut
 *   short (by time or a failed page) after it was added;
 * - memory within its bounds; a poll reads at most the pages its budget allows (plus one after a
 *   stale page), and on a list that shows its order, a poll when nothing changed reads at most 2;
 * - a manual run (Fetch Test Event) returns the newest listed record the filters accept (the newest
 *   on the first page when that lists the newest first).
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import { expect, vi } from 'vitest';

import type { EventList, RecordFilter } from '../../../nodes/shared/polling/listRecords.ts';
import { newestNewRecord, pollNewRecords } from '../../../nodes/shared/polling/newRecords.ts';
import { node } from './records.mts';

/**
 * How the list shows its records: `dated` (a `createdAt` each, opaque IDs), `numbered` (IDs ending
 * in a rising number), `opaque` (neither: no visible order). `window`: only the newest this many
 * are listed, as the audit list's `limit`.
 */
export interface ListShape {
	ids: 'dated' | 'numbered' | 'opaque';
	order: 'newestFirst' | 'oldestFirst';
	pageSize: number;
	window?: number;
}

export interface Record {
	id: string;
	createdAt?: number;
	severity: 'high' | 'low';
}

/** The configurations a history switches between: each change is a new baseline. */
const CONFIGURATIONS: Array<{ name: string; filters: RecordFilter[] }> = [
	{ name: 'all', filters: [] },
	{ name: 'high', filters: [{ fields: ['severity'], values: ['high'] }] },
	{ name: 'all?team=1', filters: [] },
];

/** Record dates: seconds, as services give them. */
const SECOND = 1000;
const EPOCH = 1_700_000_000_000;
/** The longest list in no visible order the promise covers. */
const MAX_UNORDERED = 4500;

interface History {
	addedAt: number;
	/** Added after its configuration's first poll, where the promise covers it. */
	promised: boolean;
	/** Polls not cut short since it was added. */
	wholePolls: number;
}

export class ListWorld {
	/** The list in the order the service shows it. */
	list: Record[] = [];
	private serial = 0;
	/** Records are dated when they are created: a new one is never older than any before it. */
	private newestEver = EPOCH;
	/** What the process holds, and what n8n saved in the database. */
	live: IDataObject | undefined;
	saved: IDataObject | undefined;
	configuration = 0;
	/**
	 * The first read of this configuration is not done yet (no poll of it has read to where it
	 * stops): records added meanwhile are not promised (on a list in no visible order they cannot
	 * be told from those before).
	 */
	baselinePending = true;
	/** The next poll is the configuration's first: n8n saves its static data even when it emits nothing. */
	private activating = true;
	private savedBaselinePending = true;
	readonly emitted = new Set<string>();
	private readonly old = new Set<string>();
	private readonly histories = new Map<string, History>();
	private readonly severities = new Map<string, Record['severity']>();
	/** Each record's date (or the second its number stands for). */
	private readonly dates = new Map<string, number>();
	private step = 0;
	/** Whether a configuration started (the constructor starts the first). */
	private started = false;
	/** Polls not cut short since the list, the configuration or the memory last changed. */
	private quietPolls = 0;
	/** The fake clock ListReader reads (Date.now): one ms per page. */
	private clock = 0;
	log: string[] = [];

	constructor(
		readonly shape: ListShape,
		readonly durableCursors: boolean,
		initial: number,
		configuration = 0,
	) {
		vi.spyOn(Date, 'now').mockImplementation(() => this.clock);
		for (let index = 0; index < initial; index++) this.add('new', 1, 1, 0);
		this.startConfiguration(configuration);
	}

	get filters(): RecordFilter[] {
		return CONFIGURATIONS[this.configuration].filters;
	}

	/** The records the service lists. */
	visible(): Record[] {
		const { window } = this.shape;
		if (window === undefined) return this.list;
		return this.shape.order === 'newestFirst'
			? this.list.slice(0, window)
			: this.list.slice(-window);
	}

	private newRecord(date: number, severity: Record['severity']): Record {
		const number = ++this.serial;
		// Numbered as dated: the number rises with the record's second.
		if (this.shape.ids === 'numbered')
			return { id: `thr_${1_000_000 + (date - EPOCH) / SECOND}`, severity };
		// Opaque IDs end in a letter, so that no number shows an order.
		const id = `k${(number * 7919) % 100_003}x${number}q`;
		return this.shape.ids === 'dated' ? { id, createdAt: date, severity } : { id, severity };
	}

	/**
	 * Adds `count` records at the list's new end (`new`: the top of a newest-first list, the end of
	 * an oldest-first one; dated after every listed record, or in the newest one's second when
	 * `shuffle % 4 === 0`), at its old end (`old`, dated before every one) or inside it (`inside`, at
	 * `at`, a fraction of its length, dated between its neighbours), listed in the order `shuffle`
	 * gives (rotated, maybe reversed); `low`: every one of low severity (refused by the filter).
	 */
	add(
		where: 'new' | 'old' | 'inside',
		count: number,
		shuffle: number,
		at: number,
		low = false,
	): void {
		if (this.shape.ids === 'opaque' && this.list.length + count > MAX_UNORDERED) {
			this.log.push(`add ${count}: not done, the list would outgrow ${MAX_UNORDERED}`);
			return;
		}
		if (where === 'inside' && this.list.length < 2) return;
		const dates = this.list.map((record) => this.dates.get(record.id) ?? EPOCH);
		const newest = this.newestEver;
		const oldest = Math.min(EPOCH, ...dates);
		const newestFirst = this.shape.order === 'newestFirst';
		const position =
			where === 'inside'
				? 1 + Math.floor(at * (this.list.length - 1))
				: (where === 'new') === newestFirst
					? 0
					: this.list.length;
		const dateAt = (index: number) => this.dates.get(this.list[index]?.id ?? '');
		const above = dateAt(position - 1) ?? (newestFirst ? newest : oldest);
		const below = dateAt(position) ?? (newestFirst ? oldest : newest);
		const between = Math.floor((above + below) / 2 / SECOND) * SECOND;
		const batch: Record[] = [];
		for (let index = 0; index < count; index++) {
			const severity = low || (this.serial + index) % 3 === 0 ? 'low' : 'high';
			const step = (index + 1) * SECOND;
			// The newest one's second: dated records only (numbers do not repeat).
			const sameSecond = shuffle % 4 === 0 && this.shape.ids === 'dated';
			const date =
				where === 'new'
					? newest + (sameSecond ? 0 : step)
					: where === 'old'
						? oldest - step
						: between;
			const record = this.newRecord(date, severity);
			if (this.dates.has(record.id)) continue; // a number taken: no room inside
			this.dates.set(record.id, date);
			batch.push(record);
			this.newestEver = Math.max(this.newestEver, date);
		}
		if (batch.length === 0) return;
		this.quietPolls = 0;
		// In list order (newest first: the newest on top) when shuffle < 4, else rotated and turned
		// (7: the other order, as a batch listed oldest first on top of a newest-first list).
		const inOrder = (where === 'new') === newestFirst ? [...batch].reverse() : batch;
		const turn = shuffle === 7 ? 0 : shuffle % batch.length;
		const rotated = [...inOrder.slice(turn), ...inOrder.slice(0, turn)];
		const listed = shuffle < 4 ? inOrder : shuffle % 2 === 0 ? rotated : rotated.reverse();
		this.list.splice(position, 0, ...listed);
		const promisedKind = this.shape.ids === 'opaque' || where === 'new';
		for (const record of listed) {
			this.severities.set(record.id, record.severity);
			this.histories.set(record.id, {
				addedAt: this.step,
				promised: promisedKind && !this.baselinePending,
				wholePolls: 0,
			});
		}
		this.log.push(`add ${where}${low ? ' low' : ''} ${brief(listed.map(({ id }) => id))}`);
	}

	remove(at: number, count: number): void {
		// The audit list's window shows the newest of a history that only grows.
		if (this.shape.window !== undefined) return;
		const position = Math.floor(at * this.list.length);
		const gone = this.list.splice(position, count);
		if (gone.length > 0) this.quietPolls = 0;
		this.log.push(`remove ${brief(gone.map(({ id }) => id))}`);
	}

	startConfiguration(configuration: number): void {
		// The world's first configuration starts whatever it is (records may be listed already).
		if (configuration === this.configuration && this.started) return;
		this.started = true;
		this.quietPolls = 0;
		this.configuration = configuration;
		this.baselinePending = true;
		this.activating = true;
		for (const record of this.list) this.old.add(record.id);
		this.log.push(`configuration ${CONFIGURATIONS[configuration].name}`);
	}

	/**
	 * n8n restarts: the process memory is gone, the saved static data is read again (with durable
	 * cursors off, as of the last poll that emitted: the first read may be unfinished again).
	 */
	restart(): void {
		this.live = this.saved;
		if (this.savedBaselinePending && !this.baselinePending) {
			// Records added since are as those added during the first read.
			for (const record of this.histories.values()) record.promised = false;
		}
		this.baselinePending = this.savedBaselinePending;
		this.quietPolls = 0;
		this.log.push('restart');
	}

	private eventList(pages: number | undefined, failAt: number | undefined, fetched: string[]) {
		const list: EventList = {
			node,
			serviceName: 'Test Service',
			plural: 'records',
			// Each page takes 1 ms: a budget of pages + 2 ms reads exactly `pages` pages.
			budgetMs: pages === undefined ? undefined : pages + 2,
			readPage: async (at) => {
				this.clock += 1;
				const page = Number(at?.qs?.page ?? 1);
				fetched.push(String(page));
				if (failAt !== undefined && fetched.length > failAt) {
					throw Object.assign(new Error('service unavailable'), { httpCode: '503' });
				}
				const visible = this.visible();
				const size = this.shape.pageSize;
				const records = visible.slice((page - 1) * size, page * size);
				const next = page * size < visible.length ? { qs: { page: page + 1 } } : undefined;
				return await Promise.resolve({ records: records as unknown as IDataObject[], next });
			},
		};
		return list;
	}

	/**
	 * One poll: `pages` the budget allows (undefined: no budget), `failAt` the request that fails.
	 * Returns the pages requested; checks the promise.
	 */
	async poll(pages?: number, failAt?: number): Promise<string[]> {
		this.step++;
		const fetched: string[] = [];
		const name = CONFIGURATIONS[this.configuration].name;
		const listedNow = new Set(this.visible().map(({ id }) => id));
		let result;
		try {
			result = await pollNewRecords(
				this.eventList(pages, failAt, fetched),
				this.live,
				name,
				this.filters,
				this.newestEver + 1,
			);
		} catch (error) {
			this.log.push(`poll ${pages ?? '∞'} failed after ${fetched.length} pages`);
			expect(failAt, `poll failed: ${String(error)}`).toBeDefined();
			return fetched;
		}
		const ids = result.records.map((record) => String(record.id));
		this.log.push(
			`poll ${pages ?? '∞'} read ${brief(fetched)} emitted ${brief(ids)}${result.warning ? ' (warned)' : ''}`,
		);
		const history = this.log.join('\n');
		for (const id of ids) {
			expect(this.emitted.has(id), `${id} emitted twice\n${history}`).toBe(false);
			expect(this.old.has(id), `${id} was listed at the configuration's start\n${history}`).toBe(
				false,
			);
			expect(listedNow.has(id), `${id} is not listed\n${history}`).toBe(true);
			this.emitted.add(id);
		}
		for (const record of result.records) {
			expect(record.severity === 'high' || this.filters.length === 0).toBe(true);
		}
		const memory = result.memory;
		const seen = memory.seenIds as unknown[] | undefined;
		expect(seen?.length ?? 0, 'seen IDs within their bound').toBeLessThanOrEqual(5000);
		expect((memory.refusedIds as unknown[] | undefined)?.length ?? 0).toBeLessThanOrEqual(200);
		if (pages !== undefined) {
			expect(fetched.length, `pages within the budget\n${history}`).toBeLessThanOrEqual(
				Math.max(pages, 1) + 1,
			);
		}
		this.live = JSON.parse(JSON.stringify(memory)) as IDataObject;
		const cut = pages !== undefined && fetched.length >= pages;
		if (cut) this.quietPolls = 0;
		else if (this.quietPolls++ >= 3 && this.showsOrder()) {
			expect(
				fetched.length,
				`a poll when nothing changed reads at most 2 pages\n${history}`,
			).toBeLessThanOrEqual(2);
		}
		// A record a poll did not see listed (removed, or out of the window) is not promised.
		for (const [id, record] of this.histories) if (!listedNow.has(id)) record.promised = false;
		if (!cut && !this.baselinePending) this.checkLiveness(history);
		if (!cut) this.baselinePending = false;
		if (this.durableCursors || ids.length > 0 || this.activating) {
			this.saved = this.live;
			this.savedBaselinePending = this.baselinePending;
		}
		this.activating = false;
		return fetched;
	}

	/** Every record the promise covers, listed, accepted and added two whole polls ago is emitted. */
	private checkLiveness(history: string): void {
		for (const [id, record] of this.histories) {
			if (!record.promised || this.emitted.has(id) || this.old.has(id)) continue;
			record.wholePolls++;
			const accepted = this.filters.length === 0 || this.severities.get(id) === 'high';
			if (accepted && record.wholePolls >= 2) {
				expect.fail(`${id} (added at step ${record.addedAt}) was not emitted\n${history}`);
			}
		}
	}

	/** Whether the listed records' dates or numbers only fall (newest first) or only rise. */
	private showsOrder(): boolean {
		const ranks = this.visible().map(
			({ id, createdAt }) => createdAt ?? Number(/\d+$/.exec(id)?.[0]),
		);
		const sign = this.shape.order === 'newestFirst' ? -1 : 1;
		return (
			this.shape.ids !== 'opaque' &&
			ranks.length > 1 &&
			sign * (ranks[ranks.length - 1] - ranks[0]) > 0 &&
			ranks.every((rank, index) => index === 0 || sign * (rank - ranks[index - 1]) >= 0)
		);
	}

	/** Polls without budget until all is read, and once more when nothing changed (checked by `poll`). */
	async settle(): Promise<void> {
		for (let index = 0; index < 4; index++) await this.poll();
	}

	/**
	 * A manual run (Fetch Test Event): the newest listed record the filters accept (by date or
	 * number; any accepted one of a list in no visible order).
	 */
	async fetchTestEvent(): Promise<void> {
		const fetched: string[] = [];
		const list = this.eventList(undefined, undefined, fetched);
		const found = await newestNewRecord(list, this.filters);
		const id = found === undefined ? undefined : String(found.id);
		this.log.push(`fetch test event read ${brief(fetched)} found ${id ?? 'nothing'}`);
		const history = this.log.join('\n');
		const accepted = this.visible().filter(
			({ severity }) => this.filters.length === 0 || severity === 'high',
		);
		if (accepted.length === 0) {
			expect(id, `nothing listed is accepted\n${history}`).toBeUndefined();
			return;
		}
		const ids = accepted.map((record) => record.id);
		expect(ids, `the test event is a listed, accepted record\n${history}`).toContain(id);
		if (this.shape.ids === 'opaque') return;
		const rank = (recordId: string | undefined) => this.dates.get(recordId ?? '') ?? -Infinity;
		// A first page that lists the newest first (dates falling, none turning back) and holds an
		// accepted record is all that is read; otherwise the whole list is.
		const page = this.visible().slice(0, this.shape.pageSize);
		const dates = page.map((record) => rank(record.id));
		const onPage = page.filter((record) => ids.includes(record.id));
		const falling =
			dates[0] > dates[dates.length - 1] &&
			dates.every((date, index) => index === 0 || date <= dates[index - 1]);
		const read = falling && onPage.length > 0 ? onPage.map((record) => record.id) : ids;
		const newest = Math.max(...read.map(rank));
		expect(rank(id), `the test event is the newest accepted record read\n${history}`).toBe(newest);
	}
}

/** A list of IDs for the history: all of a short one, the ends and the count of a long one. */
function brief(ids: string[]): string {
	if (ids.length <= 8) return `[${ids.join(' ')}]`;
	return `[${ids.slice(0, 3).join(' ')} … ${ids.slice(-3).join(' ')}] (${ids.length})`;
}

type Command = fc.AsyncCommand<object, ListWorld>;

/** A command of a model world that keeps a log of the history (printed when a property fails). */
export function loggedCommand<World extends { log: string[] }>(
	label: string,
	run: (world: World) => Promise<void> | void,
): fc.AsyncCommand<object, World> {
	return {
		check: () => true,
		run: async (_model, world) => {
			world.log.push(`> ${label}`);
			await run(world);
		},
		toString: () => label,
	};
}

const command = (label: string, run: (world: ListWorld) => Promise<void> | void): Command =>
	loggedCommand(label, run);

type Where = 'new' | 'old' | 'inside';

/**
 * The commands of a history by name; `batch`: the largest batch added at once, `where` the places
 * records are added, `inOrder`: batches listed in the list's order only.
 */
export function commandsOf(
	batch: number,
	where: Where[] = ['new', 'old', 'inside'],
	inOrder = false,
) {
	const fraction = fc.integer({ min: 0, max: 99 }).map((value) => value / 100);
	return {
		add: fc
			.tuple(
				fc.constantFrom(...where),
				fc.integer({ min: 1, max: batch }),
				fc.nat(inOrder ? 3 : 7),
				fraction,
				fc.boolean(),
			)
			.map(([place, count, shuffle, at, low]) =>
				command(`add(${place}, ${count}, ${shuffle}, ${at}${low ? ', low' : ''})`, (world) =>
					world.add(place, count, shuffle, at, low),
				),
			),
		remove: fc
			.tuple(fraction, fc.integer({ min: 1, max: Math.max(1, Math.floor(batch / 2)) }))
			.map(([at, count]) => command(`remove(${at}, ${count})`, (world) => world.remove(at, count))),
		cutPoll: fc
			.tuple(fc.option(fc.integer({ min: 1, max: 4 })), fc.option(fc.nat(3), { freq: 4 }))
			.map(([pages, failAt]) =>
				command(
					`poll(${pages ?? '∞'}${failAt === null ? '' : `, fail at ${failAt}`})`,
					async (world) => {
						await world.poll(pages ?? undefined, failAt ?? undefined);
					},
				),
			),
		budgetPoll: fc
			.integer({ min: 1, max: 4 })
			.map((pages) => command(`poll(${pages})`, async (world) => void (await world.poll(pages)))),
		poll: fc.constant(command('poll()', async (world) => void (await world.poll()))),
		restart: fc.constant(command('restart()', (world) => world.restart())),
		configure: fc.integer({ min: 0, max: CONFIGURATIONS.length - 1 }).map((configuration) =>
			command(`configure(${configuration})`, async (world) => {
				// Publishing runs the trigger's first poll.
				world.startConfiguration(configuration);
				await world.poll();
			}),
		),
		fetchTestEvent: fc.constant(
			command('fetchTestEvent()', async (world) => world.fetchTestEvent()),
		),
	};
}

/** Every command of a history; `batch`: the largest batch added at once. */
export function listCommands(batch: number): Array<fc.Arbitrary<Command>> {
	return Object.values(commandsOf(batch));
}
