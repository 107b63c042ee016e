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
	/** Where the service adds new records, as the dates or ID numbers of its records show it. */
	order?: ListOrder;
	/** The newest date and ID number read: a record of a list that shows its order is new from there. */
	newest?: Newest;
	/** Oldest first: the page that held the newest records, where the next poll starts. */
	newestPage?: PageRef;
	/** Where a read cut short (by time or pages) goes on. */
	resumeAt?: PageRef;
	/**
	 * The read that `resumeAt` goes on with: what was newest when it began (its records are judged
	 * from there), `quiet` when it is the first poll's (nothing in it is new), and how many records
	 * it has read (a list in no visible order).
	 */
	unread?: { newest?: Newest; quiet?: boolean; count?: number };
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
function newestPageOf(read: ListRead): PageRef | undefined {
	return [...read.pages].reverse().find((page) => page.records.length > 0)?.at;
}

/**
 * The read of one poll, one-way, chosen by the memory (`isOld`: a record dated before the newest
 * read, or numbered at most the highest; `startsOld`: also a record read before):
 * - newest first: from the list's start, or where a read cut short stopped, to the first page
 *   holding an old record;
 * - oldest first: from where a read cut short stopped, or from the page that held the newest
 *   records, to the end; from the start when that page is empty or does not start old (records
 *   left before it);
 * - the first poll, and a list in no visible order: from the start, or where a read cut short
 *   stopped, to the end (the first poll stops at a first page that shows the newest records first).
 */
async function readList(
	reader: ListReader,
	memory: Memory | undefined,
	isOld: (record: IdentifiedRecord) => boolean,
	startsOld: (record: IdentifiedRecord) => boolean,
): Promise<ListRead | undefined> {
	if (!memory) return await reader.read(undefined, { newestFirstStart: true });
	const stop = memory.order === 'newestFirst' ? { old: isOld } : {};
	if (memory.resumeAt) return await reader.read(memory.resumeAt, stop);
	if (
		// Stryker disable next-line LogicalOperator: newestPage only with oldestFirst; the read below is the same
		!memory.newestPage ||
		// Stryker disable next-line ConditionalExpression: newestPage is kept for oldestFirst only
		memory.order !== 'oldestFirst'
	)
		return await reader.read(undefined, stop);
	const read = await reader.read(memory.newestPage);
	const first = read.records[0];
	if (read.fromStart || (first && startsOld(first))) return read;
	return reader.hasTime() ? await reader.read() : undefined;
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
	const ordered = memory?.order !== undefined;
	const isOld = (record: IdentifiedRecord) => !isNewSince(record, since);
	const startsOld = (record: IdentifiedRecord) => seen.has(record.id) || isOld(record);
	const read = (await readList(reader, memory, isOld, startsOld)) ?? {
		pages: [],
		records: [],
		// Stryker disable next-line BooleanLiteral: not read after readList
		fromStart: false,
		// Stryker disable next-line BooleanLiteral: no records, so no lost track
		whole: false,
	};

	// A list in no visible order is told apart by what is remembered, as long as it all fits.
	const count = (unread?.count ?? 0) + read.records.length;
	const overflow =
		!ordered && (count > MAX_UNORDERED_IDS || (memory?.overflow === true && !!read.resumeAt));
	// The first poll's read, and a list in no visible order that outgrew the memory: only records
	// dated after the newest date known (the first poll: its start) can be told to be new.
	const quiet = !memory || unread?.quiet || memory.overflow || overflow;
	const isNew = (record: IdentifiedRecord) =>
		!seen.has(record.id) &&
		(quiet
			? memory !== undefined && recordTime(record.record) !== undefined && isNewSince(record, since)
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
	// The order is learnt from records of more than this poll (dates within a batch tell nothing).
	const withSeen = readIds.some((id) => seen.has(id));
	const learnt = withSeen || quiet ? orderOf(read.records, !withSeen) : undefined;
	const order = memory?.order ?? learnt;
	// IDs are remembered the list's new end first.
	const newEndFirst = (ids: string[]) => (order === 'oldestFirst' ? [...ids].reverse() : ids);
	const refusedNow = new Set(refused);
	const keptIds = newEndFirst(readIds.filter((id) => !refusedNow.has(id)));
	const next: Memory = {
		fingerprint: fingerprintOf(configuration),
		seenIds: mostRecentFirst(
			keptIds,
			memory?.seenIds ?? [],
			order ? MAX_SEEN_IDS : MAX_UNORDERED_IDS,
		),
		refusedIds: mostRecentFirst(
			newEndFirst(refused),
			(memory?.refusedIds ?? []).filter((id) => !wasRead.has(id)),
			MAX_REFUSED_IDS,
		),
		order,
		newest: newestOf(read.records, memory?.newest ?? {}),
		newestPage: read.resumeAt ? memory?.newestPage : newestPageOf(read),
		resumeAt: read.resumeAt,
		unread: read.resumeAt && {
			// The first poll's: records dated after it began (the next millisecond on) are new.
			newest: memory ? since : { time: now + 1, ids: [] },
			quiet: quiet || undefined,
			count,
		},
		overflow: overflow || undefined,
	};
	if (order !== 'oldestFirst') delete next.newestPage;
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
 * A manual run's test event, which reads the memory and never writes it: the newest record the
 * filters accept, from the page that held the newest records when the polls found the list oldest
 * first, else from the first page when that lists the newest records first and holds one the
 * filters accept, else from the whole list.
 */
export async function newestNewRecord(
	list: EventList,
	stored: unknown,
	configuration: string,
	filters: RecordFilter[],
): Promise<IDataObject | undefined> {
	const reader = new ListReader(list, Infinity);
	const memory = readMemory(stored, configuration);
	const newest = (read: ListRead) =>
		newestRecord(read.records.filter(({ record }) => matchesFilters(record, filters)));
	if (memory?.order === 'oldestFirst' && memory.newestPage && !memory.resumeAt) {
		const fromNewest = await reader.read(memory.newestPage);
		const found = newest(fromNewest);
		if (found || fromNewest.fromStart) return found?.record;
	}
	const start = await reader.read(undefined, { newestFirstStart: true });
	const found = newest(start) ?? (start.stoppedBeforeEnd ? newest(await reader.read()) : undefined);
	return found?.record;
}
