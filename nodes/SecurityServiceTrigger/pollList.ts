import type { IDataObject } from 'n8n-workflow';

import { orderOf, type ListOrder } from './listOrder';
import { walkFromRemembered, walkRecords, type ListReader, type PageRef, type Walk } from './listPages';
import { recordTime } from '../shared/records';
import { idCounter } from './newestRecord';
import { MAX_PENDING_IDS, MAX_REMEMBERED_IDS, mergeIds, type Gap, type PollMemory } from './pollMemory';
import type { IdentifiedRecord } from './recordIds';

export type Wanted = (record: IDataObject) => boolean;

export interface PollOutcome {
	emit: IdentifiedRecord[];
	memory: PollMemory;
}

/** Whether a record not remembered, at `index` of the records a walk read, is new. */
type NewRule = (record: IdentifiedRecord, index: number) => boolean;

/** How the records of one walk were decided, each list in list order. */
interface Decision {
	emit: IdentifiedRecord[];
	/** Emitted now, emitted before, or old: never emitted again. */
	known: string[];
	/** New but refused by the filters: looked at again when read again. */
	pending: string[];
}

/** Records a list this long or shorter are watched whole when its order is not known; longer ones at both ends. */
const WATCHED_AT_EACH_END = MAX_REMEMBERED_IDS / 2;
/** IDs that mark where an unread stretch ends. */
const GAP_END_IDS = 100;

function decide(
	records: IdentifiedRecord[],
	known: Set<string>,
	pending: Set<string>,
	isNew: NewRule,
	wanted: Wanted,
): Decision {
	const decision: Decision = { emit: [], known: [], pending: [] };
	records.forEach((record, index) => {
		if (known.has(record.id)) {
			decision.known.push(record.id);
		} else if (pending.has(record.id) || isNew(record, index)) {
			if (wanted(record.record)) {
				decision.emit.push(record);
				decision.known.push(record.id);
			} else {
				decision.pending.push(record.id);
			}
		} else {
			decision.known.push(record.id);
		}
	});
	return decision;
}

/** New when dated after `since`; without `since` or a date, not new. */
function datedAfter(since: number | undefined): NewRule {
	return ({ record }) => {
		const time = recordTime(record);
		return since !== undefined && time !== undefined && time > since;
	};
}

/** The highest number ending remembered IDs with `prefix`. */
function highestCounter(ids: string[], prefix: string): number | undefined {
	let highest: number | undefined;
	for (const id of ids) {
		const counter = idCounter(id);
		if (counter && counter[0] === prefix && (highest === undefined || counter[1] > highest)) highest = counter[1];
	}
	return highest;
}

/**
 * For a walk that found none of the remembered IDs: everything is new when there was nothing to
 * remember (the list was empty). Otherwise the remembered records have left the list: a record is
 * new when dated after the newest one seen before, or, undated, when its ID's number is above
 * the remembered ones'; a record that shows neither is new (rather emitted than missed).
 */
function whenNothingRemembered(memory: PollMemory): NewRule {
	if (memory.ids.length === 0) return () => true;
	return ({ id, record }) => {
		const time = recordTime(record);
		if (time !== undefined && memory.newest !== undefined) return time > memory.newest;
		const counter = idCounter(id);
		const highest = counter && highestCounter(memory.ids, counter[0]);
		if (counter && highest !== undefined) return counter[1] > highest;
		return true;
	};
}

function newestTime(records: IdentifiedRecord[], previous: number | undefined): number | undefined {
	return records.reduce<number | undefined>((newest, { record }) => {
		const time = recordTime(record);
		return time !== undefined && (newest === undefined || time > newest) ? time : newest;
	}, previous);
}

/** The order the pages of a walk show, when those that show one agree. */
function walkOrder(walk: Walk): ListOrder | undefined {
	const shown = new Set(walk.pages.map((page) => orderOf(page.records)).filter((order) => order !== undefined));
	return shown.size === 1 ? [...shown][0] : undefined;
}

function contradicts(walk: Walk, order: ListOrder): boolean {
	return walk.pages.some((page) => {
		const shown = orderOf(page.records);
		return shown !== undefined && shown !== order;
	});
}

/** Where the last page holding records was (undefined: the first page), or `otherwise` when none held any. */
function tailOf(walk: Walk, otherwise: PageRef | undefined): PageRef | undefined {
	const last = [...walk.pages].reverse().find((page) => page.records.length > 0);
	return last ? last.ref : otherwise;
}

/** IDs just decided, the list's new end first (both ends when the order is not known), before earlier ones. */
function rememberIds(known: string[], order: ListOrder | undefined, previous: string[]): string[] {
	if (order === 'oldestFirst') return mergeIds([...known].reverse(), previous);
	if (order === 'newestFirst' || known.length <= MAX_REMEMBERED_IDS) return mergeIds(known, previous);
	return mergeIds([...known.slice(0, WATCHED_AT_EACH_END), ...known.slice(-WATCHED_AT_EACH_END)], previous);
}

/** Pending IDs: those refused now, then earlier ones not read this time. */
function rememberPending(decisions: Decision[], previous: string[], read: Set<string>): string[] {
	const refused = decisions.flatMap((decision) => decision.pending);
	return [...refused, ...previous.filter((id) => !read.has(id))].slice(0, MAX_PENDING_IDS);
}

/** One poll's reading: its walks and the decisions on their records. */
class PollWork {
	readonly decisions: Decision[] = [];
	readonly read = new Set<string>();
	private newest: number | undefined;

	constructor(private readonly memory: PollMemory) {
		this.newest = memory.newest;
	}

	get known(): Set<string> {
		return new Set(this.memory.ids);
	}

	get pending(): Set<string> {
		return new Set(this.memory.pending);
	}

	get seen(): Set<string> {
		return new Set([...this.memory.ids, ...this.memory.pending]);
	}

	decide(records: IdentifiedRecord[], isNew: NewRule, wanted: Wanted, alsoKnown: string[] = []): Decision {
		const known = this.known;
		for (const id of alsoKnown) known.add(id);
		const decision = decide(records, known, this.pending, isNew, wanted);
		this.decisions.push(decision);
		for (const { id } of records) this.read.add(id);
		this.newest = newestTime(records, this.newest);
		return decision;
	}

	outcome(memory: Omit<PollMemory, 'pending' | 'newest'>): PollOutcome {
		return {
			emit: this.decisions.flatMap((decision) => decision.emit),
			memory: {
				...memory,
				pending: rememberPending(this.decisions, this.memory.pending, this.read),
				newest: this.newest,
			},
		};
	}
}

/**
 * The first poll for a configuration: remembers what exists and emits nothing. It reads the first
 * page; when that shows the newest records first, that is all it needs, otherwise it reads on to
 * the list's end (or as far as the poll's time allows, going on at the next poll).
 */
export async function firstPoll(reader: ListReader, fingerprint: string, now: number): Promise<PollMemory> {
	const walk = await reader.walk(
		undefined,
		(page) => page.ref === undefined && orderOf(page.records) === 'newestFirst',
	);
	const order = walkOrder(walk);
	const records = walkRecords(walk);
	const ids = records.map(({ id }) => id);
	return {
		fingerprint,
		ids: rememberIds(ids, order, []),
		pending: [],
		gaps: [],
		order,
		tail: order === 'oldestFirst' ? tailOf(walk, undefined) : undefined,
		seeking: walk.cutAt ? { at: walk.cutAt, since: now } : undefined,
		newest: newestTime(records, undefined),
	};
}

/** Goes on with a walk that has not found its place yet: to the list's end, new only by date. */
async function seekingPoll(reader: ListReader, memory: PollMemory, wanted: Wanted): Promise<PollOutcome> {
	const seeking = memory.seeking as NonNullable<PollMemory['seeking']>;
	const work = new PollWork(memory);
	const walk = await walkFromRemembered(reader, seeking.at);
	const decision = work.decide(walkRecords(walk), datedAfter(seeking.since), wanted);
	const order = memory.order ?? walkOrder(walk);
	const done = !walk.cutAt;
	return work.outcome({
		...memory,
		order,
		ids: rememberIds(decision.known, order, memory.ids),
		seeking: done ? undefined : { ...seeking, at: walk.cutAt as PageRef },
		tail: done && order === 'oldestFirst' ? tailOf(walk, memory.tail) : memory.tail,
	});
}

/**
 * Oldest first: reads from the page that held the newest records last time to the list's end
 * (or goes on where the last poll's time ran out). That page must still start with a record seen
 * before; otherwise records may have moved to pages before it, and the poll reads from the
 * list's start instead.
 */
async function oldestFirstPoll(reader: ListReader, memory: PollMemory, wanted: Wanted): Promise<PollOutcome> {
	const work = new PollWork(memory);
	const seen = work.seen;
	let walk = await walkFromRemembered(reader, memory.continueAt ?? memory.tail);
	const goingOn = memory.continueAt !== undefined && !walk.restarted;
	const first = walk.pages[0].records[0];
	if (!goingOn && !walk.restarted && memory.tail !== undefined && (first === undefined || !seen.has(first.id))) {
		if (!reader.hasTimeForAnotherPage()) return work.outcome({ ...memory, tail: undefined });
		walk = { ...(await reader.walk(undefined)), restarted: true };
	}
	const records = walkRecords(walk);
	const boundary = records.findIndex(({ id }) => seen.has(id));
	let seeking: PollMemory['seeking'];
	let isNew: NewRule;
	if (goingOn) {
		isNew = () => true;
	} else if (boundary >= 0) {
		isNew = (_record, index) => index > boundary;
	} else if (walk.cutAt) {
		isNew = datedAfter(memory.newest);
		seeking = { at: walk.cutAt, since: memory.newest };
	} else {
		isNew = whenNothingRemembered(memory);
	}
	const decision = work.decide(records, isNew, wanted);
	const stillOldestFirst = !contradicts(walk, 'oldestFirst');
	return work.outcome({
		...memory,
		ids: rememberIds(decision.known, 'oldestFirst', memory.ids),
		order: stillOldestFirst ? 'oldestFirst' : undefined,
		tail: stillOldestFirst && !seeking ? tailOf(walk, memory.tail) : undefined,
		continueAt: stillOldestFirst && !seeking ? walk.cutAt : undefined,
		seeking,
	});
}

/**
 * Newest first: reads from the first page until a page holds a record seen before. When the
 * poll's time runs short first, what lies between is remembered as a gap and read by later polls.
 */
async function newestFirstPoll(reader: ListReader, memory: PollMemory, wanted: Wanted): Promise<PollOutcome> {
	const work = new PollWork(memory);
	const seen = work.seen;
	const gaps: Gap[] = [];
	const gapKnown: string[] = [];
	for (const gap of memory.gaps) {
		if (!reader.hasTimeForAnotherPage()) {
			gaps.push(gap);
			continue;
		}
		const until = new Set(gap.until);
		const walk = await walkFromRemembered(reader, gap.at, (page) => page.records.some(({ id }) => until.has(id)));
		const inGap = walkRecords(walk);
		const end = inGap.findIndex(({ id }) => until.has(id));
		const rule: NewRule =
			end >= 0 ? (_record, index) => index < end : walk.cutAt ? () => true : datedAfter(gap.newest);
		const decision = work.decide(inGap, rule, wanted, [...gap.skip, ...gap.until]);
		gapKnown.push(...decision.known.filter((id) => !until.has(id)));
		if (walk.cutAt) {
			gaps.push({ ...gap, at: walk.cutAt, skip: walk.pages[walk.pages.length - 1].records.map(({ id }) => id) });
		}
	}
	if (!reader.hasTimeForAnotherPage()) {
		return work.outcome({ ...memory, ids: mergeIds(memory.ids, gapKnown), gaps });
	}

	const head = await reader.walk(undefined, (page) => page.records.some(({ id }) => seen.has(id)));
	const records = walkRecords(head);
	const boundary = records.findIndex(({ id }) => seen.has(id));
	let isNew: NewRule;
	if (boundary >= 0) {
		isNew = (_record, index) => index < boundary;
	} else if (head.cutAt) {
		isNew = () => true;
	} else {
		isNew = whenNothingRemembered(memory);
	}
	const decision = work.decide(records, isNew, wanted, gapKnown);
	if (head.cutAt) {
		gaps.push({
			at: head.cutAt,
			until: memory.ids.slice(0, GAP_END_IDS),
			skip: head.pages[head.pages.length - 1].records.map(({ id }) => id),
			newest: memory.newest,
		});
	}
	const stillNewestFirst = !contradicts(head, 'newestFirst');
	return work.outcome({
		...memory,
		ids: rememberIds(decision.known, 'newestFirst', mergeIds(memory.ids, gapKnown)),
		order: stillNewestFirst ? 'newestFirst' : undefined,
		gaps: stillNewestFirst ? gaps : [],
	});
}

/** Where the new records of a whole-list walk appeared: all before or all after the records seen before. */
function observedOrder(records: IdentifiedRecord[], decision: Decision, seen: Set<string>): ListOrder | undefined {
	const fresh = new Set([...decision.emit.map(({ id }) => id), ...decision.pending.filter((id) => !seen.has(id))]);
	if (fresh.size === 0) return undefined;
	const seenAt = records.flatMap(({ id }, index) => (seen.has(id) ? [index] : []));
	const freshAt = records.flatMap(({ id }, index) => (fresh.has(id) ? [index] : []));
	if (seenAt.length === 0) return undefined;
	if (Math.max(...freshAt) < Math.min(...seenAt)) return 'newestFirst';
	if (Math.min(...freshAt) > Math.max(...seenAt)) return 'oldestFirst';
	return undefined;
}

/**
 * Order not known yet: reads the whole list (going on at the next poll when its time runs short)
 * and emits records not remembered, watching both ends of a list longer than the memory.
 */
async function unorderedPoll(reader: ListReader, memory: PollMemory, wanted: Wanted): Promise<PollOutcome> {
	const work = new PollWork(memory);
	const seen = work.seen;
	const walk = await walkFromRemembered(reader, memory.continueAt);
	const fromStart = memory.continueAt === undefined || walk.restarted;
	const records = walkRecords(walk);
	const toEnd = !walk.cutAt;
	const found = records.some(({ id }) => seen.has(id));
	const isNew: NewRule =
		found || !(fromStart && toEnd)
			? (_record, index) =>
					(fromStart && index < WATCHED_AT_EACH_END) || (toEnd && index >= records.length - WATCHED_AT_EACH_END)
			: whenNothingRemembered(memory);
	const decision = work.decide(records, isNew, wanted);
	const order =
		walkOrder(walk) ?? (fromStart && toEnd ? observedOrder(records, decision, seen) : undefined);
	const complete = fromStart && toEnd;
	return work.outcome({
		...memory,
		ids: rememberIds(decision.known, order, memory.ids),
		order: complete ? order : undefined,
		tail: complete && order === 'oldestFirst' ? tailOf(walk, undefined) : undefined,
		continueAt: walk.cutAt,
	});
}

/** A poll after the first: reads what the memory says may hold new records, and emits them. */
export async function nextPoll(reader: ListReader, memory: PollMemory, wanted: Wanted): Promise<PollOutcome> {
	if (memory.seeking) return await seekingPoll(reader, memory, wanted);
	if (memory.order === 'newestFirst') return await newestFirstPoll(reader, memory, wanted);
	if (memory.order === 'oldestFirst') return await oldestFirstPoll(reader, memory, wanted);
	return await unorderedPoll(reader, memory, wanted);
}
