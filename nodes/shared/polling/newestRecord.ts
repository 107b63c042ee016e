import { recordTime } from '../lists/recordFields';

import type { IdentifiedRecord } from './recordIds';

/** `thr_12` → ["thr_", 12]; undefined for IDs that do not end in a number. */
export function idCounter(id: string): [string, number] | undefined {
	const match = /^(.*?)(\d+)$/.exec(id);
	return match ? [match[1], Number(match[2])] : undefined;
}

function maxBy<T>(entries: T[], score: (entry: T) => number): T {
	return entries.reduce((best, entry) => (score(entry) > score(best) ? entry : best));
}

/**
 * The most recent record, for a manual test run: by date when every record carries one (a
 * missing date, e.g. a queued scan's start, makes dates unreliable), else by the number ending
 * IDs that share a prefix (`upd_10` is newer than `upd_9`), else the last one listed.
 */
export function newestRecord(records: IdentifiedRecord[]): IdentifiedRecord | undefined {
	if (records.length === 0) return undefined;
	if (records.every(({ record }) => recordTime(record) !== undefined)) {
		return maxBy(records, ({ record }) => recordTime(record) as number);
	}
	const counters = records.map(({ id }) => idCounter(id));
	const prefix = counters[0]?.[0];
	if (counters.every((counter) => counter !== undefined && counter[0] === prefix)) {
		return maxBy(records, ({ id }) => (idCounter(id) as [string, number])[1]);
	}
	return records[records.length - 1];
}
