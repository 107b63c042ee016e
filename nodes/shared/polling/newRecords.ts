import type { IDataObject } from 'n8n-workflow';

import type { PageRef } from '../lists/pagedRequests';
import { isRecord, recordTime } from '../lists/recordFields';
import {
	fingerprintOf,
	isNewerThan,
	ListReader,
	matchesFilters,
	newestRecord,
	orderOf,
	type EventList,
	type IdentifiedRecord,
	type ListOrder,
	type ListRead,
	type PollResult,
	type ReadPage,
	type RecordFilter,
} from './listRecords';

/** IDs remembered at most: enough for the pages at the list's new end, small enough for static data. */
const MAX_SEEN_IDS = 1000;
/** IDs of records the filters refused, kept so that they are emitted once they match. */
const MAX_REFUSED_IDS = 200;
/** IDs that mark where an unread range ends. */
const MAX_END_IDS = 100;
/** A list of unknown order longer than the memory is watched at both ends, this many records each. */
const WATCHED_AT_EACH_END = MAX_SEEN_IDS / 2;

/** A range of a newest-first list a poll ran out of time in, read by later polls. */
interface UnreadRange {
	/** The page to read next. */
	from: PageRef;
	/** IDs seen before the range began: reading stops at the page holding one of them. */
	endIds: string[];
	/** IDs of the last page read: pages shift while new records arrive, so they may come again. */
	lastPageIds: string[];
	/** The newest record date seen before the range began (epoch ms). */
	newestTime?: number;
}

/** What a new-record event keeps between polls. */
interface Memory {
	/** Hash of the event, base URL, query parameters and filters: any change starts over. */
	fingerprint: string;
	/** IDs already emitted or known to be old, those nearest the list's new end first. */
	seenIds: string[];
	/** IDs of records the filters refused, looked at again whenever they are read. */
	refusedIds: string[];
	/** Where the service adds new records, once its pages or its new records have shown it. */
	order?: ListOrder;
	/** Oldest first: the page that held the newest records, where the next poll starts. */
	newestPage?: PageRef;
	/** Order unknown or oldest first: where a read cut short goes on. */
	resumeAt?: PageRef;
	/** Newest first: ranges not read yet. */
	unread: UnreadRange[];
	/**
	 * A read that has found no record seen before yet (the first poll's, or one that lost its place)
	 * goes on at `from` to the list's end; meanwhile only records dated after `newAfter` are new.
	 */
	unfinishedRead?: { from: PageRef; newAfter?: number };
	/** The newest record date seen (epoch ms): decides when no record seen before is listed any more. */
	newestTime?: number;
}

type IsNew = (record: IdentifiedRecord, index: number) => boolean;

/** The stored memory when it belongs to this configuration; otherwise undefined (start over). */
function readMemory(stored: unknown, configuration: string): Memory | undefined {
	if (!isRecord(stored) || !Array.isArray(stored.seenIds)) return undefined;
	if (stored.fingerprint !== fingerprintOf(configuration)) return undefined;
	return stored as unknown as Memory;
}

/**
 * IDs to remember: `current` (the records just read that are not refused, new end first), then
 * earlier IDs not among them (IDs that left the list stay until newer ones push them out, so a
 * list that comes back short for a moment does not make its records new again).
 */
function mergeIds(current: string[], previous: string[]): string[] {
	const listed = new Set(current);
	return [...current, ...previous.filter((id) => !listed.has(id))].slice(0, MAX_SEEN_IDS);
}

/** IDs just read, the list's new end first (both ends when the order is not known), before earlier ones. */
function rememberIds(read: string[], order: ListOrder | undefined, previous: string[]): string[] {
	if (order === 'oldestFirst') return mergeIds([...read].reverse(), previous);
	if (order === 'newestFirst' || read.length <= MAX_SEEN_IDS) return mergeIds(read, previous);
	return mergeIds(
		[...read.slice(0, WATCHED_AT_EACH_END), ...read.slice(-WATCHED_AT_EACH_END)],
		previous,
	);
}

/** The order the pages of a read show, when those that show one agree. */
function readOrder(read: ListRead): ListOrder | undefined {
	const shown = new Set(read.pages.map((page) => orderOf(page.records)).filter(Boolean));
	return shown.size === 1 ? [...shown][0] : undefined;
}

function contradicts(read: ListRead, order: ListOrder): boolean {
	return read.pages.some((page) => ![undefined, order].includes(orderOf(page.records)));
}

/** Where the last page holding records was (undefined: the first page), or `otherwise` when none held any. */
function newestPageOf(read: ListRead, otherwise: PageRef | undefined): PageRef | undefined {
	const last = [...read.pages].reverse().find((page) => page.records.length > 0);
	return last ? last.at : otherwise;
}

/** The IDs on a read's last page: those a read that goes on from where it stopped reads again. */
function lastPageIds(read: ListRead): string[] {
	return read.pages[read.pages.length - 1].records.map(({ id }) => id).slice(0, MAX_SEEN_IDS);
}

/** Whether a page is the list's first and shows the newest records first: it holds the newest records. */
function isNewestFirstStart(page: ReadPage): boolean {
	return page.at === undefined && orderOf(page.records) === 'newestFirst';
}

/** New when dated after `time`; without `time` or a date, not new. */
function datedAfter(time: number | undefined): IsNew {
	return ({ record }) => {
		const recordDate = recordTime(record);
		return time !== undefined && recordDate !== undefined && recordDate > time;
	};
}

/**
 * The records a read holds before (newest first) or after (oldest first) its first record of
 * `seen`; all of them when it holds none.
 */
function aroundSeen(read: ListRead, seen: ReadonlySet<string>, order: ListOrder): IsNew {
	const at = read.records.findIndex(({ id }) => seen.has(id));
	if (at < 0) return () => true;
	return (_record, index) => (order === 'newestFirst' ? index < at : index > at);
}

/** One poll's decisions on the records it read, and the memory they lead to. */
class Poll {
	readonly emit: IdentifiedRecord[] = [];
	/** IDs emitted or refused for the first time. */
	readonly fresh = new Set<string>();
	private readonly refused = new Set<string>();
	private readonly readIds = new Set<string>();
	/** Set when a read of the whole list found none of the records seen before. */
	lostTrack = false;

	constructor(
		readonly memory: Memory,
		private readonly filters: RecordFilter[],
	) {}

	private newestTime = this.memory.newestTime;

	/** IDs emitted, known to be old, or refused by the filters. */
	readonly seen = new Set([...this.memory.seenIds, ...this.memory.refusedIds]);

	/**
	 * Decides each record not seen before (nor in `alsoSeen`): one refused before or new by `isNew`
	 * is emitted when the filters accept it and refused otherwise; any other is old. Returns the IDs
	 * of the records not refused, in list order.
	 */
	decide(records: IdentifiedRecord[], isNew: IsNew, alsoSeen: string[] = []): string[] {
		const seen = new Set([...this.memory.seenIds, ...alsoSeen]);
		records.forEach((record, index) => {
			const { id } = record;
			const refusedBefore = this.memory.refusedIds.includes(id);
			const time = recordTime(record.record);
			if (time !== undefined && time > (this.newestTime ?? -Infinity)) this.newestTime = time;
			this.readIds.add(id);
			if (seen.has(id) || !(refusedBefore || isNew(record, index))) return;
			const accepted = matchesFilters(record.record, this.filters);
			if (accepted) this.emit.push(record);
			else this.refused.add(id);
			if (accepted || !refusedBefore) this.fresh.add(id);
		});
		return records.map(({ id }) => id).filter((id) => !this.refused.has(id));
	}

	/**
	 * The rule for a read of the whole list that holds none of the records seen before: everything
	 * is new when nothing was seen (the list was empty); otherwise what is dated after the newest
	 * record seen, or, undated, has an ID number above those seen; a record that shows neither is
	 * new (rather emitted than missed). Records were seen and none is listed: the poll lost track.
	 */
	whenNoneSeen(read: ListRead): IsNew {
		const { seenIds, newestTime } = this.memory;
		if (seenIds.length === 0) return () => true;
		this.lostTrack = read.records.length > 0;
		return (record) => isNewerThan(record, newestTime, seenIds);
	}

	/** The memory after this poll: `changes` over the memory it began with. */
	outcome(changes: Partial<Memory>): Memory {
		const stillRefused = this.memory.refusedIds.filter((id) => !this.readIds.has(id));
		return {
			...this.memory,
			...changes,
			refusedIds: [...this.refused, ...stillRefused].slice(0, MAX_REFUSED_IDS),
			newestTime: this.newestTime,
		};
	}
}
/**
 * A read that has not found a record seen before yet: the first poll's (`from` undefined), which
 * emits nothing and needs only a first page that shows the newest records first, or one going on
 * at `from`, which emits only records dated after `newAfter`. It reads to the list's end, or as
 * far as the poll's time allows, going on at the next poll.
 */
async function unfinishedReadPoll(
	reader: ListReader,
	poll: Poll,
	{ from, newAfter }: { from?: PageRef; newAfter?: number },
): Promise<Memory> {
	const { memory } = poll;
	const read = reader.read(from);
	for await (const page of read) if (!from && isNewestFirstStart(page)) break;
	const seenIds = poll.decide(read.records, from ? datedAfter(newAfter) : () => false);
	const order = memory.order ?? readOrder(read);
	return poll.outcome({
		order,
		seenIds: rememberIds(seenIds, order, memory.seenIds),
		unfinishedRead: read.resumeAt && { from: read.resumeAt, newAfter },
		newestPage: order === 'oldestFirst' ? newestPageOf(read, memory.newestPage) : memory.newestPage,
	});
}

/**
 * Oldest first: reads from the page that held the newest records last time to the list's end
 * (or goes on where the last poll's time ran out). That page must still start with a record seen
 * before; otherwise records may have moved to pages before it, and the poll reads from the
 * list's start instead. A read that finds no record seen before is new where it is dated after
 * the newest seen; cut short, it goes on as an unfinished read.
 */
async function oldestFirstPoll(reader: ListReader, poll: Poll): Promise<Memory> {
	const { memory, seen } = poll;
	let read = await reader.read(memory.resumeAt ?? memory.newestPage).toEnd();
	const goingOn = memory.resumeAt !== undefined && !read.fromStart;
	if (!goingOn && !read.fromStart && !seen.has(read.records[0]?.id ?? '')) {
		if (!reader.hasTime()) return poll.outcome({ newestPage: undefined });
		read = await reader.read().toEnd();
	}
	const noneSeen = !goingOn && !read.records.some(({ id }) => seen.has(id));
	const unfinishedRead =
		noneSeen && read.resumeAt ? { from: read.resumeAt, newAfter: memory.newestTime } : undefined;
	let isNew = goingOn ? () => true : aroundSeen(read, seen, 'oldestFirst');
	if (noneSeen) isNew = read.resumeAt ? datedAfter(memory.newestTime) : poll.whenNoneSeen(read);
	const seenIds = poll.decide(read.records, isNew);
	const stillOldestFirst = !contradicts(read, 'oldestFirst');
	const placed = stillOldestFirst && !unfinishedRead;
	return poll.outcome({
		seenIds: rememberIds(seenIds, 'oldestFirst', memory.seenIds),
		order: stillOldestFirst ? 'oldestFirst' : undefined,
		newestPage: placed ? newestPageOf(read, memory.newestPage) : undefined,
		resumeAt: placed ? read.resumeAt : undefined,
		unfinishedRead,
	});
}

/**
 * Newest first: reads the unread ranges earlier polls left, then from the first page until a page
 * holds a record seen before; records before it are new. When the poll's time runs short first,
 * the rest is left as an unread range for later polls.
 */
async function newestFirstPoll(reader: ListReader, poll: Poll): Promise<Memory> {
	const { memory, seen } = poll;
	const unread: UnreadRange[] = [];
	const seenInRanges: string[] = [];
	for (const range of memory.unread) {
		if (!reader.hasTime()) {
			unread.push(range);
			continue;
		}
		const endIds = new Set(range.endIds);
		const read = reader.read(range.from);
		for await (const page of read) if (page.records.some(({ id }) => endIds.has(id))) break;
		// A range whose end left the list: what is dated after the range began is new.
		const found = read.records.some(({ id }) => endIds.has(id));
		const isNew =
			found || read.resumeAt
				? aroundSeen(read, endIds, 'newestFirst')
				: datedAfter(range.newestTime);
		const seenIds = poll.decide(read.records, isNew, [...range.lastPageIds, ...range.endIds]);
		seenInRanges.push(...seenIds.filter((id) => !endIds.has(id)));
		if (read.resumeAt)
			unread.push({ ...range, from: read.resumeAt, lastPageIds: lastPageIds(read) });
	}
	if (!reader.hasTime())
		return poll.outcome({ seenIds: mergeIds(memory.seenIds, seenInRanges), unread });

	const read = reader.read();
	for await (const page of read) if (page.records.some(({ id }) => seen.has(id))) break;
	const noneSeen = read.whole && !read.records.some(({ id }) => seen.has(id));
	const isNew = noneSeen ? poll.whenNoneSeen(read) : aroundSeen(read, seen, 'newestFirst');
	const seenIds = poll.decide(read.records, isNew, seenInRanges);
	if (read.resumeAt) {
		unread.push({
			from: read.resumeAt,
			endIds: memory.seenIds.slice(0, MAX_END_IDS),
			lastPageIds: lastPageIds(read),
			newestTime: memory.newestTime,
		});
	}
	const stillNewestFirst = !contradicts(read, 'newestFirst');
	return poll.outcome({
		seenIds: rememberIds(seenIds, 'newestFirst', mergeIds(memory.seenIds, seenInRanges)),
		order: stillNewestFirst ? 'newestFirst' : undefined,
		unread: stillNewestFirst ? unread : [],
	});
}

/** Where the new records of a whole-list read appeared: all before or all after the records seen before. */
function observedOrder(
	records: IdentifiedRecord[],
	fresh: Set<string>,
	seen: Set<string>,
): ListOrder | undefined {
	const seenAt = records.flatMap(({ id }, index) => (seen.has(id) ? [index] : []));
	const freshAt = records.flatMap(({ id }, index) => (fresh.has(id) ? [index] : []));
	if (freshAt.length === 0 || seenAt.length === 0) return undefined;
	if (Math.max(...freshAt) < Math.min(...seenAt)) return 'newestFirst';
	if (Math.min(...freshAt) > Math.max(...seenAt)) return 'oldestFirst';
	return undefined;
}

/**
 * Order not known yet: reads the whole list (going on at the next poll when its time runs short)
 * and emits records not seen before, watching both ends of a list longer than the memory.
 */
async function unorderedPoll(reader: ListReader, poll: Poll): Promise<Memory> {
	const { memory, seen } = poll;
	const read = await reader.read(memory.resumeAt).toEnd();
	const { records, fromStart, whole } = read;
	const noneSeen = whole && !records.some(({ id }) => seen.has(id));
	const nearEnd: IsNew = (_record, index) =>
		(fromStart && index < WATCHED_AT_EACH_END) ||
		(!read.resumeAt && index >= records.length - WATCHED_AT_EACH_END);
	const seenIds = poll.decide(records, noneSeen ? poll.whenNoneSeen(read) : nearEnd);
	const order = readOrder(read) ?? (whole ? observedOrder(records, poll.fresh, seen) : undefined);
	return poll.outcome({
		seenIds: rememberIds(seenIds, order, memory.seenIds),
		order: whole ? order : undefined,
		newestPage: whole && order === 'oldestFirst' ? newestPageOf(read, undefined) : undefined,
		resumeAt: read.resumeAt,
	});
}

/**
 * One poll of a new-record event. The first poll for a configuration (no `stored` memory of it)
 * remembers what exists and emits nothing; later polls read where the memory says new records
 * can be and emit them. Nothing is stored until every request succeeded: the caller keeps the
 * returned memory only when this returns.
 */
export async function pollNewRecords(
	list: EventList,
	stored: unknown,
	configuration: string,
	filters: RecordFilter[],
	now = Date.now(),
): Promise<PollResult> {
	const reader = new ListReader(list);
	const remembered = readMemory(stored, configuration);
	const memory = remembered ?? {
		fingerprint: fingerprintOf(configuration),
		seenIds: [],
		refusedIds: [],
		unread: [],
	};
	const poll = new Poll(memory, filters);
	// The first poll is a read that has not found a record seen before yet, from the list's start.
	const unfinishedRead = remembered ? memory.unfinishedRead : { newAfter: now };
	let next: Memory;
	if (unfinishedRead) next = await unfinishedReadPoll(reader, poll, unfinishedRead);
	else if (memory.order === 'newestFirst') next = await newestFirstPoll(reader, poll);
	else if (memory.order === 'oldestFirst') next = await oldestFirstPoll(reader, poll);
	else next = await unorderedPoll(reader, poll);
	const emitted = poll.emit.map(({ id }) => id);
	const range = emitted.length > 0 ? ` (${emitted[0]} … ${emitted[emitted.length - 1]})` : '';
	const { node, plural } = list;
	return {
		records: poll.emit.map(({ record }) => record),
		memory: JSON.parse(JSON.stringify(next)) as IDataObject,
		warning: poll.lostTrack
			? `${node.name}: the list of ${plural} no longer shows any of those seen before (the newest was ${memory.seenIds[0]}). The poll emitted the ${emitted.length} new ${plural} it sees${range}; ${plural} added after ${memory.seenIds[0]} that the list no longer shows may have been missed.`
			: undefined,
	};
}

/**
 * A manual run's test event, which reads the memory and never writes it: the newest record the
 * filters accept, from the page that held the newest records when the polls found the list oldest
 * first, else from the first page when that lists the newest records first, else from the whole list.
 */
export async function newestNewRecord(
	list: EventList,
	stored: unknown,
	configuration: string,
	filters: RecordFilter[],
): Promise<IDataObject | undefined> {
	const reader = new ListReader(list);
	const memory = readMemory(stored, configuration);
	const accepted = ({ record }: IdentifiedRecord) => matchesFilters(record, filters);
	if (memory?.order === 'oldestFirst' && memory.newestPage && !memory.unfinishedRead) {
		const fromNewest = await reader.read(memory.newestPage).toEnd();
		const newest = newestRecord(fromNewest.records.filter(accepted));
		if (newest || fromNewest.fromStart) return newest?.record;
	}
	const whole = reader.read(undefined, false);
	for await (const page of whole) if (isNewestFirstStart(page)) break;
	return newestRecord(whole.records.filter(accepted))?.record;
}
