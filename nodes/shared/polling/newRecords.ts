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
	/** The resume point: where a read cut short goes on. */
	resumeAt?: PageRef;
	/**
	 * Records no poll has read yet, from the resume point to the page holding one of `endIds`, or to
	 * the list's end. Left by a newest-first read cut short (its end: the IDs seen before it began),
	 * and by a read that has not found a record seen before (the first poll's, or one that lost its
	 * place; no end IDs: only records dated after `newAfter` are new).
	 */
	unread?: { endIds: string[]; newAfter?: number };
	/** The newest record date seen (epoch ms): decides when no record seen before is listed any more. */
	newestTime?: number;
}

type IsNew = (record: IdentifiedRecord, index: number) => boolean;

/** What one poll read, how it tells the new records in it, and the unread range it leaves. */
interface Reading {
	read: ListRead;
	isNew: IsNew;
	/** The list order this read leaves. */
	order?: ListOrder;
	/** Set when a read of the whole list found records but none of those seen before. */
	lostTrack?: boolean;
	/** Seen IDs nearer the list's new end than the records read (an unread range's). */
	seenBefore?: string[];
	unread?: Memory['unread'];
}

/** The stored memory when it belongs to this configuration; otherwise undefined (start over). */
function readMemory(stored: unknown, configuration: string): Memory | undefined {
	const ours = isRecord(stored) && stored.fingerprint === fingerprintOf(configuration);
	return ours && Array.isArray(stored.seenIds) ? (stored as unknown as Memory) : undefined;
}

/**
 * IDs to remember: `current` (the records just read that are not refused, new end first), then
 * earlier IDs not among them (IDs that left the list stay until newer ones push them out, so a
 * list that comes back short for a moment does not make its records new again).
 */
function mergeIds(current: string[], previous: string[]): string[] {
	const listed = new Set(current);
	return [...listed, ...previous.filter((id) => !listed.has(id))].slice(0, MAX_SEEN_IDS);
}

/** IDs just read, the list's new end first (both ends when the order is not known), before earlier ones. */
function rememberIds(read: string[], order: ListOrder | undefined, previous: string[]): string[] {
	if (order === 'oldestFirst') return mergeIds([...read].reverse(), previous);
	if (order === 'newestFirst') return mergeIds(read, previous);
	return mergeIds(
		[...read.slice(0, WATCHED_AT_EACH_END), ...read.slice(-WATCHED_AT_EACH_END)],
		previous,
	);
}

/**
 * The list order after a read: `known`, unless a page of the read shows the other one; not known
 * yet, the order the read's pages show, when those that show one agree.
 */
function orderAfter(read: ListRead, known: ListOrder | undefined): ListOrder | undefined {
	const shown = new Set(read.pages.map((page) => orderOf(page.records)).filter(Boolean));
	if (known) return [...shown].every((order) => order === known) ? known : undefined;
	return shown.size === 1 ? [...shown][0] : undefined;
}

/** Where the last page holding records was asked for (undefined: the first page, or none held any). */
function newestPageOf(read: ListRead): PageRef | undefined {
	return [...read.pages].reverse().find((page) => page.records.length > 0)?.at;
}

/** New when dated after `time`; without `time` or a date, not new. */
function datedAfter(time: number | undefined): IsNew {
	return ({ record }) => (recordTime(record) ?? -Infinity) > (time ?? Infinity);
}

/**
 * The records a read holds before (newest first) or after (oldest first) its first record of
 * `ids`; all of them when it holds none.
 */
function aroundFirst(read: ListRead, ids: ReadonlySet<string>, order: ListOrder): IsNew {
	const at = read.records.findIndex(({ id }) => ids.has(id));
	if (at < 0) return () => true;
	return (_record, index) => (order === 'newestFirst' ? index < at : index > at);
}

/**
 * `isNew`, unless the read went over the whole list and holds none of the records seen before:
 * then everything is new when nothing was seen (the list was empty); otherwise what is dated after
 * the newest record seen or, undated, has an ID number above those seen; a record that shows
 * neither is new (rather emitted than missed). Records were seen and none is listed: lost track.
 */
function unlessNoneSeen(
	read: ListRead,
	memory: Memory,
	seen: ReadonlySet<string>,
	isNew: IsNew,
): Pick<Reading, 'isNew' | 'lostTrack'> {
	if (!read.whole || read.records.some(({ id }) => seen.has(id))) return { isNew };
	const { seenIds, newestTime } = memory;
	return {
		isNew: (record) => isNewerThan(record, newestTime, seenIds),
		lostTrack: read.records.length > 0 && seenIds.length > 0,
	};
}

/**
 * Newest first, and the unread range: reads until a page holds one of the end IDs (the unread
 * range's, from the resume point; else those seen before, from the list's start); records before
 * it are new, as are all of a read cut short before meeting one. An unread range that meets none
 * by the list's end counts what is dated after it began (`newAfter`). Cut short, the rest is the
 * unread range (`newAfter`: the newest date seen, or the first poll's start), read by the next
 * polls. The first poll (nothing seen) needs only a first page that shows the newest records first.
 */
async function readNewestFirst(
	reader: ListReader,
	memory: Memory,
	seen: ReadonlySet<string>,
	newAfter: number | undefined,
): Promise<Reading> {
	const { unread } = memory;
	const ends = unread ? new Set(unread.endIds) : seen;
	const stop = { ids: ends, newestFirstStart: seen.size === 0 };
	const read = await reader.read(unread && memory.resumeAt, stop);
	const metEnd = read.records.some(({ id }) => ends.has(id)) || (read.resumeAt && ends.size > 0);
	const judged =
		unread && !metEnd
			? { isNew: datedAfter(unread.newAfter) }
			: unlessNoneSeen(read, memory, seen, aroundFirst(read, ends, 'newestFirst'));
	const newerThanRange = memory.seenIds.findIndex((id) => ends.has(id));
	const next = unread ?? { endIds: memory.seenIds.slice(0, MAX_END_IDS), newAfter };
	return {
		read,
		...judged,
		order: orderAfter(read, memory.order),
		seenBefore: memory.seenIds.slice(0, Math.max(0, newerThanRange)),
		unread: read.resumeAt && next,
	};
}

/** Where the new records of a read appeared: all before or all after the records seen before. */
function observedOrder(
	read: ListRead,
	isNew: IsNew,
	seen: ReadonlySet<string>,
): ListOrder | undefined {
	const marks = read.records.map((record, index) => {
		if (seen.has(record.id)) return 'seen';
		return isNew(record, index) ? 'new' : 'old';
	});
	if (!marks.includes('new') || !marks.includes('seen')) return undefined;
	if (marks.lastIndexOf('new') < marks.indexOf('seen')) return 'newestFirst';
	return marks.indexOf('new') > marks.lastIndexOf('seen') ? 'oldestFirst' : undefined;
}

/** A read of no page, for a poll that has no time left to read. */
const NOTHING_READ: ListRead = { pages: [], records: [], fromStart: false, whole: false };

/**
 * Oldest first, or order unknown: reads to the list's end from the resume point, else from the
 * page that held the newest records (oldest first), else from the start.
 * - Oldest first: records after the first one seen before are new. The page that held the newest
 *   records must still start with a record seen before; otherwise records may have moved to pages
 *   before it, and the poll reads from the list's start instead (or, without time, the next poll
 *   does). A read from the start cut short before finding a record seen before leaves an unread
 *   range.
 * - Order unknown: the records not seen before are new at both ends of a list longer than the
 *   memory; a read of the whole list learns the order its pages show, or where its new records
 *   appeared.
 */
async function readToEnd(
	reader: ListReader,
	memory: Memory,
	seen: ReadonlySet<string>,
): Promise<Reading> {
	const { resumeAt, order } = memory;
	let read = await reader.read(resumeAt ?? memory.newestPage);
	if (!resumeAt && !read.fromStart && !seen.has(read.records[0]?.id ?? '')) {
		if (!reader.hasTime()) return { read: NOTHING_READ, isNew: () => false, order };
		read = await reader.read();
	}
	const { records, fromStart, whole } = read;
	if (order && fromStart && read.resumeAt && !records.some(({ id }) => seen.has(id))) {
		const unread = { endIds: [], newAfter: memory.newestTime };
		const isNew = datedAfter(memory.newestTime);
		return { read, isNew, order, unread };
	}
	const nearEnd: IsNew = (_record, index) =>
		(fromStart && index < WATCHED_AT_EACH_END) ||
		(!read.resumeAt && index >= records.length - WATCHED_AT_EACH_END);
	const isNew = order ? aroundFirst(read, seen, order) : nearEnd;
	const judged = unlessNoneSeen(read, memory, seen, isNew);
	const shown = order || whole ? orderAfter(read, order) : undefined;
	const learnt = !order && whole ? observedOrder(read, judged.isNew, seen) : undefined;
	return { read, order: shown ?? learnt, ...judged };
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
	const memory: Memory = remembered ?? {
		fingerprint: fingerprintOf(configuration),
		seenIds: [],
		refusedIds: [],
	};
	const seen = new Set([...memory.seenIds, ...memory.refusedIds]);
	const reading =
		!remembered || memory.unread || memory.order === 'newestFirst'
			? await readNewestFirst(reader, memory, seen, remembered ? memory.newestTime : now)
			: await readToEnd(reader, memory, seen);

	// Each record not seen before is emitted when new (or refused before) and the filters accept it.
	const { read } = reading;
	const isNew = remembered ? reading.isNew : () => false; // the first poll emits nothing
	const seenIds = new Set(memory.seenIds);
	const refusedBefore = new Set(memory.refusedIds);
	const emit: IdentifiedRecord[] = [];
	const refused = new Set<string>();
	let newestTime = memory.newestTime;
	read.records.forEach((record, index) => {
		const time = recordTime(record.record);
		if (time !== undefined && time > (newestTime ?? -Infinity)) newestTime = time;
		if (seenIds.has(record.id) || !(refusedBefore.has(record.id) || isNew(record, index))) return;
		if (matchesFilters(record.record, filters)) emit.push(record);
		else refused.add(record.id);
	});
	const readIds = read.records.map(({ id }) => id);
	const kept = [...(reading.seenBefore ?? []), ...readIds.filter((id) => !refused.has(id))];
	const wasRead = new Set(readIds);
	const stillRefused = memory.refusedIds.filter((id) => !wasRead.has(id));
	const next: Memory = {
		fingerprint: memory.fingerprint,
		seenIds: rememberIds(kept, reading.order, memory.seenIds),
		refusedIds: [...refused, ...stillRefused].slice(0, MAX_REFUSED_IDS),
		order: reading.order,
		resumeAt: read.resumeAt,
		unread: reading.unread,
		newestTime,
	};
	if (next.order === 'oldestFirst' && !next.unread) next.newestPage = newestPageOf(read);
	const range = emit.length > 0 ? ` (${emit[0].id} … ${emit[emit.length - 1].id})` : '';
	const { node, plural } = list;
	return {
		records: emit.map(({ record }) => record),
		memory: JSON.parse(JSON.stringify(next)) as IDataObject,
		warning: reading.lostTrack
			? `${node.name}: the list of ${plural} no longer shows any of those seen before (the newest was ${memory.seenIds[0]}). The poll emitted the ${emit.length} new ${plural} it sees${range}; ${plural} added after ${memory.seenIds[0]} that the list no longer shows may have been missed.`
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
	const reader = new ListReader(list, Infinity);
	const memory = readMemory(stored, configuration);
	const accepted = ({ record }: IdentifiedRecord) => matchesFilters(record, filters);
	if (memory?.order === 'oldestFirst' && memory.newestPage && !memory.unread) {
		const fromNewest = await reader.read(memory.newestPage);
		const newest = newestRecord(fromNewest.records.filter(accepted));
		if (newest || fromNewest.fromStart) return newest?.record;
	}
	const whole = await reader.read(undefined, { newestFirstStart: true });
	return newestRecord(whole.records.filter(accepted))?.record;
}
