import type { IDataObject } from 'n8n-workflow';

import type { PageRef } from '../lists/pagedRequests';
import { isRecord, textOf } from '../lists/recordFields';
import {
	fingerprintOf,
	ListReader,
	matchesFilters,
	newestRecord,
	type EventList,
	type PollResult,
	type RecordFilter,
} from './listRecords';

/** Records whose status is remembered at most (about 12 characters each in static data). */
const MAX_WATCHED_RECORDS = 5000;

/** A status change event: which field holds the status, and the field the previous one is emitted in. */
export interface StatusChange {
	field: string;
	previousField: string;
}

/** Record ID → the status the last poll that read it saw, in list order; undefined for another configuration. */
function readStatuses(stored: unknown, configuration: string): Map<string, string> | undefined {
	if (!isRecord(stored) || !isRecord(stored.statuses)) return undefined;
	if (stored.fingerprint !== fingerprintOf(configuration)) return undefined;
	const statuses = new Map<string, string>();
	for (const [status, ids] of Object.entries(stored.statuses)) {
		if (!Array.isArray(ids)) continue;
		for (const id of ids) if (typeof id === 'string') statuses.set(id, status);
	}
	return statuses;
}

/**
 * One poll of a status change event: reads the list (going on where the last poll's time ran
 * out) and emits each record whose status differs from the one remembered (not only in case; a
 * missing status keeps the one remembered), with that status in `previousField`; memory `{ fingerprint, statuses: { <status>: [ids] }, resumeAt? }`; a record read for the
 * first time emits nothing. A change the filters refuse is remembered all the same. Without a
 * memory of this configuration (the first poll) it only remembers.
 */
export async function pollStatusChanges(
	list: EventList,
	stored: unknown,
	configuration: string,
	change: StatusChange,
	filters: RecordFilter[],
): Promise<PollResult> {
	const remembered = readStatuses(stored, configuration);
	const { resumeAt } = (remembered ? stored : {}) as { resumeAt?: PageRef };
	const reader = new ListReader(list);
	const read = await (resumeAt && remembered
		? reader.goOn(resumeAt, ({ id }) => remembered.has(id))
		: reader.read());
	const statuses = new Map<string, string>();
	const records: IDataObject[] = [];
	for (const { id, record } of read.records) {
		if (statuses.size >= MAX_WATCHED_RECORDS) continue;
		const previous = remembered?.get(id);
		// A status missing for a poll is no change: the one remembered stays.
		const status = textOf(record[change.field]) ?? previous;
		if (status === undefined) continue;
		statuses.set(id, status);
		// A change of case alone is none either (filters do not tell case apart).
		const changed = previous !== undefined && previous.toLowerCase() !== status.toLowerCase();
		if (changed && matchesFilters(record, filters)) {
			records.push({ ...record, [change.previousField]: previous });
		}
	}
	// Records not read this time keep their status, unless this poll read the whole list.
	if (!read.whole)
		for (const [id, status] of remembered ?? []) if (!statuses.has(id)) statuses.set(id, status);
	const byStatus: Record<string, string[]> = {};
	for (const [id, status] of [...statuses].slice(0, MAX_WATCHED_RECORDS))
		(byStatus[status] ??= []).push(id);
	const unwatched = read.records.length - MAX_WATCHED_RECORDS;
	return {
		records,
		memory: {
			fingerprint: fingerprintOf(configuration),
			statuses: byStatus,
			...(read.resumeAt && { resumeAt: read.resumeAt as IDataObject }),
		},
		warning:
			unwatched > 0
				? `${list.node.name}: the list holds ${unwatched} more ${list.plural} than the trigger watches; their ${change.field} changes are not emitted.`
				: undefined,
	};
}

/** A manual run's test event: the newest listed record the filters accept, with its remembered status as the previous one. */
export async function newestStatus(
	list: EventList,
	stored: unknown,
	configuration: string,
	change: StatusChange,
	filters: RecordFilter[],
): Promise<IDataObject | undefined> {
	const whole = await new ListReader(list, Infinity).read();
	const accepted = whole.records.filter(({ record }) => matchesFilters(record, filters));
	const newest = newestRecord(accepted);
	if (!newest) return undefined;
	const previous = readStatuses(stored, configuration)?.get(newest.id) ?? null;
	return { ...newest.record, [change.previousField]: previous };
}
