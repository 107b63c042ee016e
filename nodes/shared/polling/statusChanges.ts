import type { IDataObject } from 'n8n-workflow';

import { textOf } from '../lists/recordFields';
import { walkFromRemembered, walkRecords, type ListReader } from './pageWalk';
import type { Wanted } from './pollDecisions';
import type { StatusChange } from './pollEvents';
import { MAX_WATCHED_RECORDS, type StatusMemory } from './statusMemory';

export interface StatusOutcome {
	/** The changed records, each with its previous status added. */
	emit: IDataObject[];
	memory: StatusMemory;
	/** Records listed beyond `MAX_WATCHED_RECORDS`, whose changes are not seen. */
	unwatched: number;
}

/**
 * Reads the list (going on where the last poll's time ran out) and emits each record whose
 * status differs from the one remembered; a record read for the first time emits nothing. A
 * change the filters refuse is remembered all the same. Without `memory` (the first poll for a
 * configuration) it only remembers.
 */
export async function pollStatuses(
	reader: ListReader,
	memory: StatusMemory | undefined,
	change: StatusChange,
	wanted: Wanted,
	fingerprint: string,
): Promise<StatusOutcome> {
	const remembered = memory?.statuses ?? new Map<string, string>();
	const walk = await walkFromRemembered(reader, memory?.continueAt);
	const fromStart = memory?.continueAt === undefined || walk.restarted;
	const records = walkRecords(walk);
	const statuses = new Map<string, string>();
	const emit: IDataObject[] = [];
	for (const { id, record } of records) {
		const status = textOf(record[change.field]);
		if (status === undefined || statuses.size >= MAX_WATCHED_RECORDS) continue;
		statuses.set(id, status);
		const previous = remembered.get(id);
		if (memory && previous !== undefined && previous !== status && wanted(record)) {
			emit.push({ ...record, [change.previousField]: previous });
		}
	}
	// Records not read this time keep their status, unless this poll read the whole list.
	if (!(fromStart && !walk.cutAt)) {
		for (const [id, status] of remembered) if (!statuses.has(id)) statuses.set(id, status);
	}
	return {
		emit,
		memory: { fingerprint, statuses, continueAt: walk.cutAt },
		unwatched: Math.max(0, records.length - MAX_WATCHED_RECORDS),
	};
}
