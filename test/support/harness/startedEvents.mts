import { processMemory } from '../../../nodes/PerformanceService/trigger/startedEvents.ts';

/**
 * The Performance Service Trigger's started events as saved in a node's static data (the format
 * users' saved workflows hold, so written out here rather than taken from the code):
 * `{ startedEvents: { <batchId>: "<added>.<first>.<newest>.<12-character digests>" } }`.
 */
export const STATIC_DATA_FIELD = 'startedEvents';

/** Every event in a stored value, digest → the epoch seconds of its batch's newest start. */
export function readStoredEvents(stored: unknown): Map<string, number> {
	const events = new Map<string, number>();
	for (const value of Object.values((stored ?? {}) as Record<string, unknown>)) {
		const match = typeof value === 'string' && /^\d+\.\d+\.(\d+)\.((?:[\w-]{12})*)$/.exec(value);
		if (!match) continue;
		for (const digest of match[2].match(/.{12}/g) ?? [])
			events.set(digest, Math.max(Number(match[1]), events.get(digest) ?? 0));
	}
	return events;
}

/** What a restart of n8n does to the trigger: this process's memory of every node is gone. */
export function forgetProcessMemory(): void {
	processMemory.clear();
}
