import { isNewestFirstStart, orderOf, type ListOrder } from './recordOrder';
import {
	walkFromRemembered,
	walkRecords,
	type ListReader,
	type PageRef,
	type Walk,
} from './pageWalk';
import {
	datedAfter,
	newestTime,
	PollWork,
	rememberIds,
	WATCHED_AT_EACH_END,
	whenNothingRemembered,
	type Decision,
	type NewRule,
	type PollOutcome,
	type Wanted,
} from './pollDecisions';
import { mergeIds, type Gap, type PollMemory } from './pollMemory';
import type { IdentifiedRecord } from './recordIds';

/** IDs that mark where an unread stretch ends. */
const GAP_END_IDS = 100;

/** The order the pages of a walk show, when those that show one agree. */
function walkOrder(walk: Walk): ListOrder | undefined {
	const shown = new Set(
		walk.pages.map((page) => orderOf(page.records)).filter((order) => order !== undefined),
	);
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

/** The IDs on a walk's last page: those a walk that goes on from its cut reads again. */
function lastPageIds(walk: Walk): string[] {
	return walk.pages[walk.pages.length - 1].records.map(({ id }) => id);
}

/** Whether a list that held records seen before now lists records but none of those. */
function lostSight(memory: PollMemory, records: IdentifiedRecord[]): boolean {
	return memory.ids.length > 0 && records.length > 0;
}

/** How a poll tells the new records of a walk, and what decided it. */
interface NewRuleChoice {
	isNew: NewRule;
	/**
	 * `seen`: a record seen before, where the new ones end; `cut`: none in a walk cut short;
	 * `whole`: none in a walk that read to the list's end.
	 */
	by: 'seen' | 'cut' | 'whole';
}

/**
 * The new rule for a walk's records. When one of them is `seen`, the new ones are those before
 * the first such (`newAre: 'before'`, a list newest first) or after it (`'after'`, oldest first);
 * when none is, `ifCut` holds for a walk cut short and `ifWhole` for one that read to the end.
 */
function newRuleFor(
	walk: Walk,
	records: IdentifiedRecord[],
	seen: ReadonlySet<string>,
	newAre: 'before' | 'after',
	otherwise: { ifCut: NewRule; ifWhole: NewRule },
): NewRuleChoice {
	const boundary = records.findIndex(({ id }) => seen.has(id));
	if (boundary >= 0) {
		const isNew: NewRule =
			newAre === 'before'
				? (_record, index) => index < boundary
				: (_record, index) => index > boundary;
		return { isNew, by: 'seen' };
	}
	if (walk.cutAt) return { isNew: otherwise.ifCut, by: 'cut' };
	return { isNew: otherwise.ifWhole, by: 'whole' };
}

/**
 * The first poll for a configuration: remembers what exists and emits nothing. It reads the first
 * page; when that shows the newest records first, that is all it needs, otherwise it reads on to
 * the list's end (or as far as the poll's time allows, going on at the next poll).
 */
export async function firstPoll(
	reader: ListReader,
	fingerprint: string,
	now: number,
): Promise<PollMemory> {
	const walk = await reader.walk(undefined, isNewestFirstStart);
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
async function seekingPoll(
	reader: ListReader,
	memory: PollMemory,
	wanted: Wanted,
): Promise<PollOutcome> {
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
async function oldestFirstPoll(
	reader: ListReader,
	memory: PollMemory,
	wanted: Wanted,
): Promise<PollOutcome> {
	const work = new PollWork(memory);
	const seen = work.seen;
	let walk = await walkFromRemembered(reader, memory.continueAt ?? memory.tail);
	const goingOn = memory.continueAt !== undefined && !walk.restarted;
	const first = walk.pages[0].records[0];
	if (
		!goingOn &&
		!walk.restarted &&
		memory.tail !== undefined &&
		(first === undefined || !seen.has(first.id))
	) {
		if (!reader.hasTimeForAnotherPage()) return work.outcome({ ...memory, tail: undefined });
		walk = { ...(await reader.walk(undefined)), restarted: true };
	}
	const records = walkRecords(walk);
	const choice = newRuleFor(walk, records, seen, 'after', {
		ifCut: datedAfter(memory.newest),
		ifWhole: whenNothingRemembered(memory),
	});
	const isNew: NewRule = goingOn ? () => true : choice.isNew;
	work.lostTrack = !goingOn && choice.by === 'whole' && lostSight(memory, records);
	const seeking: PollMemory['seeking'] =
		!goingOn && choice.by === 'cut' && walk.cutAt
			? { at: walk.cutAt, since: memory.newest }
			: undefined;
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
async function newestFirstPoll(
	reader: ListReader,
	memory: PollMemory,
	wanted: Wanted,
): Promise<PollOutcome> {
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
		const walk = await walkFromRemembered(reader, gap.at, (page) =>
			page.records.some(({ id }) => until.has(id)),
		);
		const inGap = walkRecords(walk);
		const { isNew } = newRuleFor(walk, inGap, until, 'before', {
			ifCut: () => true,
			ifWhole: datedAfter(gap.newest),
		});
		const decision = work.decide(inGap, isNew, wanted, [...gap.skip, ...gap.until]);
		gapKnown.push(...decision.known.filter((id) => !until.has(id)));
		if (walk.cutAt) {
			gaps.push({
				...gap,
				at: walk.cutAt,
				skip: lastPageIds(walk),
			});
		}
	}
	if (!reader.hasTimeForAnotherPage()) {
		return work.outcome({ ...memory, ids: mergeIds(memory.ids, gapKnown), gaps });
	}

	const head = await reader.walk(undefined, (page) => page.records.some(({ id }) => seen.has(id)));
	const records = walkRecords(head);
	const { isNew, by } = newRuleFor(head, records, seen, 'before', {
		ifCut: () => true,
		ifWhole: whenNothingRemembered(memory),
	});
	work.lostTrack = by === 'whole' && lostSight(memory, records);
	const decision = work.decide(records, isNew, wanted, gapKnown);
	if (head.cutAt) {
		gaps.push({
			at: head.cutAt,
			until: memory.ids.slice(0, GAP_END_IDS),
			skip: lastPageIds(head),
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
function observedOrder(
	records: IdentifiedRecord[],
	decision: Decision,
	seen: Set<string>,
): ListOrder | undefined {
	const fresh = new Set([
		...decision.emit.map(({ id }) => id),
		...decision.pending.filter((id) => !seen.has(id)),
	]);
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
async function unorderedPoll(
	reader: ListReader,
	memory: PollMemory,
	wanted: Wanted,
): Promise<PollOutcome> {
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
					(fromStart && index < WATCHED_AT_EACH_END) ||
					(toEnd && index >= records.length - WATCHED_AT_EACH_END)
			: whenNothingRemembered(memory);
	work.lostTrack = !found && fromStart && toEnd && lostSight(memory, records);
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
export async function nextPoll(
	reader: ListReader,
	memory: PollMemory,
	wanted: Wanted,
): Promise<PollOutcome> {
	if (memory.seeking) return await seekingPoll(reader, memory, wanted);
	if (memory.order === 'newestFirst') return await newestFirstPoll(reader, memory, wanted);
	if (memory.order === 'oldestFirst') return await oldestFirstPoll(reader, memory, wanted);
	return await unorderedPoll(reader, memory, wanted);
}
