import { createHash } from 'node:crypto';

import { NodeOperationError, type IDataObject, type INode } from 'n8n-workflow';

import { listPages, type PageReader, type PageRef } from '../lists/pagedRequests';
import { recordTime, textOf } from '../lists/recordFields';

/** The event's list as a poll reads it. */
export interface EventList {
	/** The node named in errors. */
	node: INode;
	serviceName: string;
	/** What the records are, in messages: `threats`. */
	plural: string;
	readPage: PageReader;
	/** The time one poll may spend reading (ms); undefined: no limit. */
	budgetMs?: number;
}

export interface IdentifiedRecord {
	id: string;
	record: IDataObject;
}

/** Accepts a record when one of `fields` holds one of `values` (case-insensitive). */
export interface RecordFilter {
	fields: string[];
	values: string[];
}

/** What one poll of an event found. */
export interface PollResult {
	/** The records to emit, in list order. */
	records: IDataObject[];
	/** The memory to keep, plain JSON (the node's static data). */
	memory: IDataObject;
	/** For n8n's log: what the poll may have missed. */
	warning?: string;
}

/** Where a list puts its new records: at its start (`newestFirst`) or at its end (`oldestFirst`). */
export type ListOrder = 'newestFirst' | 'oldestFirst';

/** A page read: where it was asked for (undefined: the list's start) and its records. */
export interface ReadPage {
	at?: PageRef;
	records: IdentifiedRecord[];
}

/** Pages one poll's read takes at most; the next poll goes on from there, as when its time runs short. */
export const MAX_PAGES_PER_READ = 1000;

/** Answers to a remembered link or cursor meaning the service no longer knows it. */
const STALE_LINK_STATUSES = ['400', '404', '410', '422'];

/** Whether a record passes every filter; a record lacking a filtered field does not. */
export function matchesFilters(record: IDataObject, filters: RecordFilter[]): boolean {
	return filters.every(({ fields, values }) =>
		fields.some((field) => {
			const value = record[field];
			return (
				(typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') &&
				values.includes(String(value).trim().toLowerCase())
			);
		}),
	);
}

/** A hash of what the memory belongs to: a memory of another configuration is not read. */
export function fingerprintOf(configuration: string): string {
	return createHash('sha256').update(configuration).digest('hex').slice(0, 32);
}

/**
 * Pairs each record with its `id`. Records without one make the whole poll fail: without IDs
 * nothing can be told apart.
 */
export function identifyRecords(list: EventList, records: IDataObject[]): IdentifiedRecord[] {
	const missing = records.filter((record) => textOf(record.id) === undefined);
	if (missing.length > 0) {
		const fields = Object.keys(missing[0]).slice(0, 10).join(', ') || 'none';
		throw new NodeOperationError(
			list.node,
			`${missing.length} of ${records.length} ${list.plural} in the list have no "id" field, so new ones cannot be told apart`,
			{
				description: `Nothing was emitted and the trigger's memory is unchanged. Fields of the first record without an ID: ${fields}. Check that the base URL in the credential points at the ${list.serviceName} API; if the service lists records without IDs, use the ${list.serviceName} node's "Get Many" on a schedule instead.`,
			},
		);
	}
	return records.map((record) => ({ id: textOf(record.id) as string, record }));
}

/** `thr_12` → ["thr_", 12]; undefined for IDs that do not end in a number. */
function idNumber(id: string): [string, number] | undefined {
	const match = /^(.*?)(\d+)$/.exec(id);
	return match ? [match[1], Number(match[2])] : undefined;
}

/** The numbers ending the IDs, when every ID ends in one after the same prefix. */
function idNumbers(records: IdentifiedRecord[]): number[] | undefined {
	const numbers = records.map(({ id }) => idNumber(id));
	const prefix = numbers[0]?.[0];
	return numbers.every((number) => number !== undefined && number[0] === prefix)
		? numbers.map((number) => (number as [string, number])[1])
		: undefined;
}

/** The dates of the records (epoch ms), when every one has one. */
function recordTimes(records: IdentifiedRecord[]): number[] | undefined {
	const times = records.map(({ record }) => recordTime(record));
	return times.every((time) => time !== undefined) ? (times as number[]) : undefined;
}

/**
 * The newest record seen: its date (epoch ms) and the IDs read with that date, and the highest
 * number ending an undated record's ID.
 */
export interface Newest {
	time?: number;
	ids?: string[];
	number?: number;
}

/** The newest of `newest` and `records`: dates of dated records, ID numbers of undated ones. */
export function newestOf(records: IdentifiedRecord[], newest: Newest): Newest {
	let { time, number } = newest;
	// A copy: `newest` may be what a read going on judges by.
	let ids = [...(newest.ids ?? [])];
	for (const { id, record } of records) {
		const date = recordTime(record);
		const own = idNumber(id)?.[1];
		if (date === undefined) {
			if (own !== undefined) number = Math.max(own, number ?? own);
		} else {
			if (date > (time ?? -Infinity)) [time, ids] = [date, []];
			if (date === time && !ids.includes(id)) ids.push(id);
		}
	}
	return { time, ids, number };
}

/**
 * Whether a record is newer than `newest`: dated after its date, or of the same date and not
 * read with it; undated, an ID number above its number. Without a date or a number to compare,
 * `unknown` (by default, new).
 */
export function isNewSince(record: IdentifiedRecord, newest: Newest, unknown = true): boolean {
	const date = recordTime(record.record);
	if (date !== undefined && newest.time !== undefined) {
		return date > newest.time || (date === newest.time && !newest.ids?.includes(record.id));
	}
	const own = idNumber(record.id)?.[1];
	return own === undefined || newest.number === undefined ? unknown : own > newest.number;
}

/**
 * The order records show: by their dates when every record has one, else by the numbers ending
 * IDs that share a prefix, when the first and last records and the newest and oldest agree on it
 * (a batch listed in any order at the new end does not hide it); undefined when they do not tell
 * (fewer than two values, mixed dates and IDs, no dates, opaque IDs). `oneBatch`: the records may
 * all be one batch listed in any order (the first poll's), so they show an order only when no
 * record turns back against it.
 */
export function orderOf(records: IdentifiedRecord[], oneBatch = false): ListOrder | undefined {
	// Stryker disable next-line ArrayDeclaration: one rank, like none, shows no order
	const ranks = recordTimes(records) ?? idNumbers(records) ?? [];
	// 1 when the ranks fall from the first record to the last, -1 when they rise (0 or NaN: neither).
	const ends = Math.sign(ranks[0] - ranks[ranks.length - 1]);
	// The same from the newest record to the oldest.
	const extremes = Math.sign(ranks.indexOf(Math.min(...ranks)) - ranks.indexOf(Math.max(...ranks)));
	if (ends === 0 || ends !== extremes) return undefined;
	const turnsBack = ranks.some((rank, index) => Math.sign(ranks[index - 1] - rank) === -ends);
	if (oneBatch && turnsBack) return undefined;
	return ends === 1 ? 'newestFirst' : 'oldestFirst';
}

/**
 * The most recent record, for a manual test run: by date when every record carries one (a
 * missing date, e.g. a queued scan's start, makes dates unreliable), else by the number ending
 * IDs that share a prefix (`upd_10` is newer than `upd_9`), else the last one listed.
 */
export function newestRecord(records: IdentifiedRecord[]): IdentifiedRecord | undefined {
	const scores = recordTimes(records) ?? idNumbers(records);
	if (!scores) return records[records.length - 1];
	let newest = 0;
	scores.forEach((score, index) => {
		if (score > scores[newest]) newest = index;
	});
	return records[newest];
}

function isStaleLink(error: unknown): boolean {
	return STALE_LINK_STATUSES.includes(String((error as { httpCode?: unknown }).httpCode));
}

/**
 * One read of the list: its pages and their records in list order (each once). `resumeAt` is set
 * when the read stopped for lack of time or pages: the page it read last, where `goOn` goes on.
 */
export interface ListRead {
	pages: ReadPage[];
	records: IdentifiedRecord[];
	resumeAt?: PageRef;
	/** Whether the read began at the list's start (asked to, or the remembered page was stale). */
	fromStart: boolean;
	/** Whether the read went from the list's start to its end, or to the page that stopped it. */
	whole: boolean;
	/** Set when a page stopped the read and the list goes on after it: the page after it. */
	next?: PageRef;
	/** The page the read was asked to begin at was stale or moved: it began again at the restart page. */
	restarted?: boolean;
	/** The first page, read again, holds no record read before: the list moved by a page or more. */
	moved?: boolean;
}

/**
 * Where a read stops before the list's end: at the first page holding a record `old` says is old;
 * with `newestFirstStart`, at a first page that shows the newest records first (it holds them).
 */
export interface ReadStop {
	old?: (record: IdentifiedRecord) => boolean;
	newestFirstStart?: boolean;
	/** The first page was read before: when it holds no record `readBefore` knows, the list moved. */
	readBefore?: (record: IdentifiedRecord) => boolean;
}

/** `{}`: a read cut short after the list's first page goes on there. */
const LIST_START: PageRef = {};

function stopsAt(page: ReadPage, stop: ReadStop): boolean {
	if (
		stop.newestFirstStart &&
		page.at === undefined &&
		orderOf(page.records, true) === 'newestFirst'
	)
		return true;
	return stop.old !== undefined && page.records.some(stop.old);
}

/** Reads the event's list for one poll, within the time the poll may spend. */
export class ListReader {
	private readonly startedAt = Date.now();
	private slowestPageMs = 0;

	/** `maxPages`: the pages one read takes at most (a manual run reads them all). */
	constructor(
		readonly list: EventList,
		private readonly maxPages = MAX_PAGES_PER_READ,
	) {}

	/**
	 * Whether another page fits in the poll's budget: while twice the slowest page so far still
	 * fits. A read always takes its first page, so every poll makes progress.
	 */
	hasTime(): boolean {
		const { budgetMs } = this.list;
		if (budgetMs === undefined) return true;
		return Date.now() - this.startedAt + 2 * this.slowestPageMs < budgetMs;
	}

	/**
	 * Reads from `from` (the list's start when undefined) page after page, up to the page `stop`
	 * names or the list's end, or until the poll's time or its pages run out. When the
	 * service refuses the remembered page `from` as stale (a cursor whose record is gone), the read
	 * begins again at `restartAt` (the list's start when undefined).
	 */
	async read(
		from?: PageRef,
		stop: ReadStop = {},
		restartAt?: PageRef,
		minPages = 1,
	): Promise<ListRead> {
		try {
			return await this.readFrom(from, stop, minPages);
		} catch (error) {
			if (from === undefined || !isStaleLink(error)) return await Promise.reject(error as Error);
			const fresh = { ...stop, readBefore: undefined };
			return { ...(await this.readFrom(restartAt, fresh, minPages)), restarted: true };
		}
	}

	/**
	 * Goes on with a read cut short: `resumeAt` is the page it read last, read again first (records
	 * that left the pages before it may have moved others onto it), then at least one page more.
	 * When that page holds no record read before (`readBefore`), the list moved by a page or more
	 * and the read begins again at the list's start.
	 */
	async goOn(
		resumeAt: PageRef,
		readBefore: (record: IdentifiedRecord) => boolean,
		stop: ReadStop = {},
	): Promise<ListRead> {
		if (resumeAt.url === undefined && resumeAt.qs === undefined) {
			return await this.read(undefined, stop, undefined, 2);
		}
		const read = await this.read(resumeAt, { ...stop, readBefore }, undefined, 2);
		return read.moved ? { ...(await this.read(undefined, stop)), restarted: true } : read;
	}

	private async readFrom(
		from: PageRef | undefined,
		stop: ReadStop,
		minPages: number,
	): Promise<ListRead> {
		const read: ListRead = { pages: [], records: [], fromStart: !from, whole: !from };
		const ids = new Set<string>();
		let requested = Date.now();
		for await (const { at, records, next } of listPages(this.list.readPage, from)) {
			this.slowestPageMs = Math.max(this.slowestPageMs, Date.now() - requested);
			const page = { at, records: identifyRecords(this.list, records) };
			read.pages.push(page);
			for (const record of page.records) {
				if (!ids.has(record.id)) read.records.push(record);
				ids.add(record.id);
			}
			if (stop.readBefore && read.pages.length === 1 && !page.records.some(stop.readBefore)) {
				return { ...read, moved: true };
			}
			if (stopsAt(page, stop)) return next ? { ...read, next } : read;
			const taken = read.pages.length >= minPages;
			if (next && (read.pages.length >= this.maxPages || (taken && !this.hasTime()))) {
				return { ...read, resumeAt: at ?? LIST_START, whole: false };
			}
			requested = Date.now();
		}
		return read;
	}
}
