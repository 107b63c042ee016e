import type { IDataObject } from 'n8n-workflow';

import type { PageRef } from '../lists/pagedRequests';
import { isRecord, recordTime } from '../lists/recordFields';
import {
	fingerprintOf,
	isNewSince,
	ListReader,
	matchesFilters,
	newestOf,
	newestRecord,
	orderOf,
	type EventList,
	type IdentifiedRecord,
	type ListOrder,
	type ListRead,
	type Newest,
	type PollResult,
	type RecordFilter,
} from './listRecords';

/** IDs remembered of a list that shows its order: those read last, at its new end. */
const MAX_SEEN_IDS = 1000;
/** IDs remembered of a list in no visible order: all it lists, and those that left it last. */
const MAX_UNORDERED_IDS = 5000;
/** IDs of records the filters refused, kept so that they are emitted once they match. */
const MAX_REFUSED_IDS = 200;

/** What a new-record event keeps between polls. */
interface Memory {
	/** Hash of the event, base URL, query parameters and filters: any change starts over. */
	fingerprint: string;
	/** IDs read, the most recently read first (emitted, or known to be old). */
	seenIds: string[];
	/** IDs of records the filters refused, the most recently read first. */
	refusedIds: string[];
	/**
	 * Where the service adds new records, as the dates or ID numbers of a read holding records read
	 * before and records newer than them show it.
	 */
	order?: ListOrder;
	/**
	 * No order learnt yet, but the dates or ID numbers of the last whole read only fell or only rose
	 * (they may be one batch, listed either way): the way they did. Records are judged by date,
	 * and each poll reads both ends of the list.
	 */
	showsOrder?: ListOrder;
	/** The newest date and ID number read: a record of a list that shows its order is new from there. */
	newest?: Newest;
	/** The last page holding records when a read last reached the list's end (not newest first). */
	lastPage?: PageRef;
	/** Where a read cut short (by time or pages) goes on. */
	resumeAt?: PageRef;
	/**
	 * The read that `resumeAt` goes on with: what was newest when it began (its records are judged
	 * from there), `quiet` when it is the first poll's (nothing in it is new), how many records it
	 * has read (a list in no visible order), the IDs on the page it read last, `untilOld` when it
	 * stops at the first page holding an old record, and `thenEnd` when the end of the list is read after it.
	 */
	unread?: {
		newest?: Newest;
		quiet?: boolean;
		count?: number;
		pageIds?: string[];
		untilOld?: boolean;
		thenEnd?: boolean;
	};
	/** A list in no visible order outgrew the memory: nothing is new until a read fits it again. */
	overflow?: boolean;
}

/** The stored memory when it belongs to this configuration; otherwise undefined (start over). */
function readMemory(stored: unknown, configuration: string): Memory | undefined {
	const ours = isRecord(stored) && stored.fingerprint === fingerprintOf(configuration);
	// A memory written before issue 37 (no `newest`) is not read either: it starts over.
	return ours && Array.isArray(stored.seenIds) && isRecord(stored.newest)
		? (stored as unknown as Memory)
		: undefined;
}

/** `first` (each once), then the IDs of `rest` not among them, at most `max`. */
function mostRecentFirst(first: string[], rest: string[], max: number): string[] {
	const head = new Set(first);
	return [...head, ...rest.filter((id) => !head.has(id))].slice(0, max);
}

/** Where the last page holding records was asked for (undefined: the first page). */
function lastPageOf(read: ListRead): PageRef | undefined {
	return [...read.pages].reverse().find((page) => page.records.length > 0)?.at;
}

/** A poll's read, and how it goes on when it was cut short. */
interface PollRead {
	read: ListRead;
	/** The cut read stops at the first page holding an old record, and then reads the list's end. */
	untilOld?: boolean;
	thenEnd?: boolean;
}

/** An oldest-first list's poll with no time left to read its end. */
const NOTHING_READ: ListRead = { pages: [], records: [], fromStart: false, whole: false };

/** The read of the start, then the read of the end (each record once, in list order). */
function joined(start: ListRead, end: ListRead | undefined): ListRead {
	if (!end) return start;
	const ids = new Set(start.records.map(({ id }) => id));
	return {
		...end,
		pages: [...start.pages, ...end.pages],
		records: [...start.records, ...end.records.filter(({ id }) => !ids.has(id))],
		fromStart: start.fromStart,
		whole: start.whole,
	};
}

/**
 * The list's end: from the last page that held records to the end; from `after` (where a read of
 * the list's start stopped; undefined: the list's start) when there is no such page or it is now
 * empty, stale or does not start old (records left before it). Undefined when no time is left.
 */
async function readEnd(
	reader: ListReader,
	lastPage: PageRef | undefined,
	startsOld: (record: IdentifiedRecord) => boolean,
	after?: PageRef,
): Promise<ListRead | undefined> {
	if (lastPage !== undefined) {
		const read = await reader.read(lastPage, {}, after);
		const first = read.records[0];
		if (read.restarted || (first && startsOld(first))) return read;
		if (!reader.hasTime()) return undefined;
	}
	return await reader.read(after);
}

/**
 * The read of one poll, one-way, chosen by the memory (`isOld`: a record dated before the newest
 * read, or numbered at most the highest; `startsOld`: also a record read before):
 * - newest first: from the list's start to the first page holding an old record;
 * - oldest first: its end (`readEnd`);
 * - an order shown but not learnt: both, the start then the end;
 * - the first poll, and a list in no visible order: from the start to the end.
 * A read cut short goes on where it stopped, the same way.
 */
async function readList(
	reader: ListReader,
	memory: Memory | undefined,
	isOld: (record: IdentifiedRecord) => boolean,
	startsOld: (record: IdentifiedRecord) => boolean,
	readBefore: (record: IdentifiedRecord) => boolean,
): Promise<PollRead> {
	if (!memory) return { read: await reader.read() };
	const untilOld = { old: isOld };
	const startThenEnd = async (start: ListRead, goingOn = false): Promise<PollRead> => {
		if (start.resumeAt) return { read: start, untilOld: true, thenEnd: true };
		// A read going on took its pages beyond the budget: the next poll reads both ends again.
		if (!start.next || (goingOn && !reader.hasTime())) return { read: start };
		return { read: joined(start, await readEnd(reader, memory.lastPage, startsOld, start.next)) };
	};
	const { resumeAt, unread } = memory;
	if (resumeAt) {
		if (!unread?.untilOld) return { read: await reader.goOn(resumeAt, readBefore) };
		const rest = await reader.goOn(resumeAt, readBefore, untilOld);
		return unread.thenEnd ? await startThenEnd(rest, true) : { read: rest, untilOld: true };
	}
	if (memory.order === 'newestFirst') {
		return { read: await reader.read(undefined, untilOld), untilOld: true };
	}
	if (memory.order === 'oldestFirst') {
		return { read: (await readEnd(reader, memory.lastPage, startsOld)) ?? NOTHING_READ };
	}
	if (memory.showsOrder) return await startThenEnd(await reader.read(undefined, untilOld));
	return { read: await reader.read() };
}

/**
 * One poll of a new-record event. The first poll for a configuration (no `stored` memory of it)
 * remembers what exists and emits nothing; later polls emit each record not read before that is
 * new: on a list that shows its order (dates, or numbers ending the IDs), dated from the newest
 * date read on (the same second included) or numbered above the highest number read; on a list
 * in no visible order, any record not remembered. Nothing is stored until every request
 * succeeded: the caller keeps the returned memory only when this returns.
 */
export async function pollNewRecords(
	list: EventList,
	stored: unknown,
	configuration: string,
	filters: RecordFilter[],
	now = Date.now(),
): Promise<PollResult> {
	const reader = new ListReader(list);
	const memory = readMemory(stored, configuration);
	const seen = new Set(memory?.seenIds);
	const refusedBefore = new Set(memory?.refusedIds);
	const unread = memory?.resumeAt ? memory.unread : undefined;
	const since = unread?.newest ?? memory?.newest ?? {};
	const ordered = memory?.order !== undefined || memory?.showsOrder !== undefined;
	const isOld = (record: IdentifiedRecord) => !isNewSince(record, since);
	const startsOld = (record: IdentifiedRecord) => seen.has(record.id) || isOld(record);
	// The page a read going on reads again still holds a record it held: the list did not move past it.
	const lastPageIds = new Set(unread?.pageIds);
	const readBefore = (record: IdentifiedRecord) => lastPageIds.has(record.id);
	const polled = await readList(reader, memory, isOld, startsOld, readBefore);
	const { read } = polled;

	// A list in no visible order is told apart by what is remembered, as long as it all fits.
	// A read going on read its first page again (unless it began again at the list's start).
	const again = unread && !read.restarted ? read.pages[0].records.length : 0;
	const count = (read.restarted ? 0 : (unread?.count ?? 0)) + read.records.length - again;
	const overflow =
		!ordered && (count > MAX_UNORDERED_IDS || (memory?.overflow === true && !!read.resumeAt));
	// The first poll's read, and a list in no visible order that outgrew the memory: only records
	// dated after the newest date known (the first poll: its start; any, when no date was read) or
	// numbered above the highest number known can be told to be new.
	const quiet = !memory || unread?.quiet || memory.overflow || overflow;
	const isNew = (record: IdentifiedRecord) =>
		!seen.has(record.id) &&
		(quiet
			? memory !== undefined && isNewSince(record, since, recordTime(record.record) !== undefined)
			: !ordered || isNewSince(record, since));
	const emit: IdentifiedRecord[] = [];
	const refused: string[] = [];
	for (const record of read.records) {
		if (seen.has(record.id) || !(refusedBefore.has(record.id) || isNew(record))) continue;
		if (matchesFilters(record.record, filters)) emit.push(record);
		else refused.push(record.id);
	}

	const readIds = read.records.map(({ id }) => id);
	const wasRead = new Set(readIds);
	// The order is learnt from a read holding records newer than all read before and older ones:
	// the dates within one batch tell nothing (it may be listed either way).
	const twoBatches = read.records.some(isOld) && read.records.some((record) => !isOld(record));
	const order = memory?.order ?? (twoBatches ? orderOf(read.records) : undefined);
	// Until then, a whole read whose records only fall or only rise shows an order.
	const wholeRead = !memory?.showsOrder && !read.resumeAt;
	const showsOrder =
		order === undefined
			? (memory?.showsOrder ?? (wholeRead ? orderOf(read.records, true) : undefined))
			: undefined;
	// A read that goes on at the next poll, unless it is a read to the end of a list now known to be
	// newest first (its new end was read).
	const resumeAt = order === 'newestFirst' && !polled.untilOld ? undefined : read.resumeAt;
	const newest = newestOf(read.records, memory?.newest ?? {});
	// IDs are remembered the list's new end first.
	const newEndFirst = (ids: string[]) =>
		(order ?? showsOrder) === 'oldestFirst' ? [...ids].reverse() : ids;
	const refusedNow = new Set(refused);
	const keptIds = newEndFirst(readIds.filter((id) => !refusedNow.has(id)));
	const next: Memory = {
		fingerprint: fingerprintOf(configuration),
		seenIds: mostRecentFirst(
			keptIds,
			memory?.seenIds ?? [],
			// While a read goes on, records added at the new end can push those it read ahead of it.
			(order || showsOrder) && !resumeAt ? MAX_SEEN_IDS : MAX_UNORDERED_IDS,
		),
		refusedIds: mostRecentFirst(
			newEndFirst(refused),
			(memory?.refusedIds ?? []).filter((id) => !wasRead.has(id)),
			MAX_REFUSED_IDS,
		),
		order,
		showsOrder,
		newest,
		lastPage: read.resumeAt || read.next ? memory?.lastPage : lastPageOf(read),
		resumeAt,
		unread: resumeAt && {
			// The first poll's: records dated after it began (the next millisecond on) are new.
			newest: memory ? since : { time: now + 1, ids: [] },
			quiet: quiet || undefined,
			count,
			pageIds: read.pages[read.pages.length - 1].records.map(({ id }) => id),
			untilOld: polled.untilOld,
			thenEnd: polled.thenEnd,
		},
		// A read that shows the order ends it: the list is judged by dates or numbers from then on.
		overflow: (overflow && (order ?? showsOrder) === undefined) || undefined,
	};
	if (order === 'newestFirst') delete next.lastPage;
	const lostTrack =
		read.whole && read.records.length > 0 && seen.size > 0 && !readIds.some((id) => seen.has(id));
	const range = emit.length > 0 ? ` (${emit[0].id} … ${emit[emit.length - 1].id})` : '';
	const { node, plural } = list;
	const newestSeen = memory?.seenIds[0];
	return {
		records: emit.map(({ record }) => record),
		memory: JSON.parse(JSON.stringify(next)) as IDataObject,
		warning: next.overflow
			? `${node.name}: the list of ${plural} shows no order and holds more than the ${MAX_UNORDERED_IDS} ${plural} the trigger can tell apart; new ${plural} are not emitted until it holds fewer. Narrow it with Query Parameters.`
			: lostTrack
				? `${node.name}: the list of ${plural} no longer shows any of those seen before (the newest was ${newestSeen}). The poll emitted the ${emit.length} new ${plural} it sees${range}; ${plural} added after ${newestSeen} that the list no longer shows may have been missed.`
				: undefined,
	};
}

/**
 * A manual run's test event: the newest record the filters accept. Only the first page is read
 * when it lists the newest records first (its dates or ID numbers only fall) and holds one the
 * filters accept; otherwise the whole list is. The memory is neither read nor written.
 */
export async function newestNewRecord(
	list: EventList,
	filters: RecordFilter[],
): Promise<IDataObject | undefined> {
	const reader = new ListReader(list, Infinity);
	const newest = (read: ListRead) =>
		newestRecord(read.records.filter(({ record }) => matchesFilters(record, filters)));
	const start = await reader.read(undefined, { newestFirstStart: true });
	const found =
		newest(start) ??
		(start.next ? newest(joined(start, await reader.read(start.next))) : undefined);
	return found?.record;
}
