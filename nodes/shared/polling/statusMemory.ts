import type { IDataObject } from 'n8n-workflow';

import { isRecord } from '../lists/recordFields';
import type { PageRef } from './pageWalk';
import { configurationFingerprint } from './pollMemory';

/** Records whose status is remembered at most (about 12 characters each in static data). */
export const MAX_WATCHED_RECORDS = 5000;

/** What a status change trigger keeps between polls, under the node's static data. */
export interface StatusMemory {
	/** Hash of the event, base URL, query parameters and filters: any change starts over. */
	fingerprint: string;
	/** Record ID → the status the last poll that read it saw, in list order. */
	statuses: Map<string, string>;
	/** Where a walk cut short by the poll's time goes on. */
	continueAt?: PageRef;
}

/** The memory when it is intact and belongs to this configuration; otherwise undefined. */
export function readStatusMemory(stored: unknown, configuration: string): StatusMemory | undefined {
	if (!isRecord(stored) || !isRecord(stored.statuses)) return undefined;
	const fingerprint = configurationFingerprint(configuration);
	if (stored.fingerprint !== fingerprint) return undefined;
	const statuses = new Map<string, string>();
	for (const [status, ids] of Object.entries(stored.statuses)) {
		if (!Array.isArray(ids)) continue;
		for (const id of ids) if (typeof id === 'string') statuses.set(id, status);
	}
	const at = stored.continueAt;
	const continueAt = isRecord(at)
		? {
				...(typeof at.url === 'string' && { url: at.url }),
				...(isRecord(at.qs) && { qs: at.qs }),
			}
		: undefined;
	return { fingerprint, statuses, continueAt };
}

/** The memory as stored: IDs grouped under their status, so that a status is written once. */
export function storedStatusMemory(memory: StatusMemory): IDataObject {
	const byStatus: Record<string, string[]> = {};
	let kept = 0;
	for (const [id, status] of memory.statuses) {
		if (kept++ >= MAX_WATCHED_RECORDS) break;
		(byStatus[status] ??= []).push(id);
	}
	return {
		fingerprint: memory.fingerprint,
		statuses: byStatus,
		...(memory.continueAt && { continueAt: memory.continueAt as IDataObject }),
	};
}
