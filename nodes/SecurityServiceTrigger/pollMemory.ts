import type { IDataObject } from 'n8n-workflow';

import type { IdentifiedRecord } from './recordIds';

/** IDs remembered at most: the memory lives in the workflow's static data, which n8n saves with the workflow. */
export const MAX_REMEMBERED_IDS = 5000;
/** In a longer list only this many records at each end are watched: services add new records at one end. */
export const WATCHED_AT_EACH_END = MAX_REMEMBERED_IDS / 2;

/** What the trigger keeps between polls, under the node's static data. */
export type PollMemory = {
	/** Event, base URL, query parameters and filters the IDs belong to; any change starts over. */
	source: string;
	/** IDs already emitted or present at activation, those of the latest list first. */
	ids: string[];
};

export interface PollOutcome {
	emit: IdentifiedRecord[];
	memory: PollMemory;
}

/** The stored memory when it is intact and belongs to the same source; otherwise undefined. */
export function readMemory(stored: unknown, source: string): PollMemory | undefined {
	if (typeof stored !== 'object' || stored === null) return undefined;
	const { source: storedSource, ids } = stored as IDataObject;
	if (storedSource !== source || !Array.isArray(ids)) return undefined;
	return { source, ids: ids.filter((id): id is string => typeof id === 'string') };
}

/** Records the trigger looks at: all of them, or the two ends of a list longer than the memory. */
function watched(records: IdentifiedRecord[]): IdentifiedRecord[] {
	if (records.length <= MAX_REMEMBERED_IDS) return records;
	return [...records.slice(0, WATCHED_AT_EACH_END), ...records.slice(-WATCHED_AT_EACH_END)];
}

function remember(
	source: string,
	records: IdentifiedRecord[],
	keep: (id: string) => boolean,
	previous: string[],
): PollMemory {
	const current = records.map(({ id }) => id).filter(keep);
	const listed = new Set(records.map(({ id }) => id));
	// IDs that left the list stay until newer ones push them out: a list that comes back
	// short for a moment must not make its records new again.
	const older = previous.filter((id) => !listed.has(id));
	return { source, ids: [...current, ...older].slice(0, MAX_REMEMBERED_IDS) };
}

/** First poll for this source: everything listed now counts as known, nothing is emitted. */
export function firstMemory(source: string, records: IdentifiedRecord[]): PollMemory {
	return remember(source, watched(records), () => true, []);
}

/**
 * A later poll: emits the watched records not remembered that `wanted` accepts, and remembers
 * them. Records `wanted` refuses are not remembered, so they are emitted once they match.
 */
export function nextPoll(
	memory: PollMemory,
	records: IdentifiedRecord[],
	wanted: (record: IDataObject) => boolean,
): PollOutcome {
	const known = new Set(memory.ids);
	const candidates = watched(records);
	const emit = candidates.filter(({ id, record }) => !known.has(id) && wanted(record));
	const emitted = new Set(emit.map(({ id }) => id));
	return {
		emit,
		memory: remember(memory.source, candidates, (id) => known.has(id) || emitted.has(id), memory.ids),
	};
}
