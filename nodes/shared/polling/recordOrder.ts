import { recordTime } from '../lists/recordFields';
import { idCounter } from './newestRecord';
import type { ListPage } from './pageWalk';
import type { IdentifiedRecord } from './recordIds';

/** Where a list puts its new records: at its start (`newestFirst`) or at its end (`oldestFirst`). */
export type ListOrder = 'newestFirst' | 'oldestFirst';

/** The direction of a sequence that only rises or only falls (and does not stay flat). */
function direction(values: number[]): ListOrder | undefined {
	let rises = false;
	let falls = false;
	for (let index = 1; index < values.length; index++) {
		if (values[index] > values[index - 1]) rises = true;
		if (values[index] < values[index - 1]) falls = true;
	}
	if (rises === falls) return undefined;
	return rises ? 'oldestFirst' : 'newestFirst';
}

/**
 * The order a page of records shows: by their dates when every record has one and they only
 * rise or only fall, else by the numbers ending IDs that share a prefix; undefined when the
 * page does not tell (fewer than two records, mixed dates and IDs, no dates, opaque IDs).
 */
export function orderOf(records: IdentifiedRecord[]): ListOrder | undefined {
	if (records.length < 2) return undefined;
	const times = records.map(({ record }) => recordTime(record));
	if (times.every((time) => time !== undefined)) {
		const byTime = direction(times as number[]);
		if (byTime) return byTime;
	}
	const counters = records.map(({ id }) => idCounter(id));
	const prefix = counters[0]?.[0];
	if (!counters.every((counter) => counter !== undefined && counter[0] === prefix))
		return undefined;
	return direction(counters.map((counter) => (counter as [string, number])[1]));
}

/**
 * Whether a page is the list's first and shows the newest records first: then it holds the newest
 * records, and a walk that only needs those can stop after it.
 */
export function isNewestFirstStart(page: ListPage): boolean {
	return page.ref === undefined && orderOf(page.records) === 'newestFirst';
}
