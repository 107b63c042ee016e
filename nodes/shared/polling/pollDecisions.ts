import type { IDataObject } from 'n8n-workflow';

import { recordTime } from '../lists/recordFields';
import type { ListOrder } from './recordOrder';
import { idCounter } from './newestRecord';
import { MAX_PENDING_IDS, MAX_REMEMBERED_IDS, mergeIds, type PollMemory } from './pollMemory';
import type { IdentifiedRecord } from './recordIds';

export type Wanted = (record: IDataObject) => boolean;

export interface PollOutcome {
	emit: IdentifiedRecord[];
	memory: PollMemory;
	/** The poll read the list to its end without finding any record seen before: some may have been missed. */
	lostTrack: boolean;
}

/** Whether a record not remembered, at `index` of the records a walk read, is new. */
export type NewRule = (record: IdentifiedRecord, index: number) => boolean;

/** How the records of one walk were decided, each list in list order. */
export interface Decision {
	emit: IdentifiedRecord[];
	/** Emitted now, emitted before, or old: never emitted again. */
	known: string[];
	/** New but refused by the filters: looked at again when read again. */
	pending: string[];
}

/** Records a list this long or shorter are watched whole when its order is not known; longer ones at both ends. */
export const WATCHED_AT_EACH_END = MAX_REMEMBERED_IDS / 2;

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
export function datedAfter(since: number | undefined): NewRule {
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
		if (counter && counter[0] === prefix && (highest === undefined || counter[1] > highest))
			highest = counter[1];
	}
	return highest;
}

/**
 * For a walk that found none of the remembered IDs: everything is new when there was nothing to
 * remember (the list was empty). Otherwise the remembered records have left the list: a record is
 * new when dated after the newest one seen before, or, undated, when its ID's number is above
 * the remembered ones'; a record that shows neither is new (rather emitted than missed).
 */
export function whenNothingRemembered(memory: PollMemory): NewRule {
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

export function newestTime(
	records: IdentifiedRecord[],
	previous: number | undefined,
): number | undefined {
	return records.reduce<number | undefined>((newest, { record }) => {
		const time = recordTime(record);
		return time !== undefined && (newest === undefined || time > newest) ? time : newest;
	}, previous);
}

/** IDs just decided, the list's new end first (both ends when the order is not known), before earlier ones. */
export function rememberIds(
	known: string[],
	order: ListOrder | undefined,
	previous: string[],
): string[] {
	if (order === 'oldestFirst') return mergeIds([...known].reverse(), previous);
	if (order === 'newestFirst' || known.length <= MAX_REMEMBERED_IDS)
		return mergeIds(known, previous);
	return mergeIds(
		[...known.slice(0, WATCHED_AT_EACH_END), ...known.slice(-WATCHED_AT_EACH_END)],
		previous,
	);
}

/** Pending IDs: those refused now, then earlier ones not read this time. */
function rememberPending(decisions: Decision[], previous: string[], read: Set<string>): string[] {
	const refused = decisions.flatMap((decision) => decision.pending);
	return [...refused, ...previous.filter((id) => !read.has(id))].slice(0, MAX_PENDING_IDS);
}

/** One poll's reading: its walks and the decisions on their records. */
export class PollWork {
	readonly decisions: Decision[] = [];
	readonly read = new Set<string>();
	/** Set when a walk read the whole list and found none of the records seen before. */
	lostTrack = false;
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

	decide(
		records: IdentifiedRecord[],
		isNew: NewRule,
		wanted: Wanted,
		alsoKnown: string[] = [],
	): Decision {
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
			lostTrack: this.lostTrack,
			memory: {
				...memory,
				pending: rememberPending(this.decisions, this.memory.pending, this.read),
				newest: this.newest,
			},
		};
	}
}
