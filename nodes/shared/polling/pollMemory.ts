import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { isRecord } from '../lists/recordFields';
import type { ListOrder } from './recordOrder';
import type { PageRef } from './pageWalk';

/** IDs remembered at most: enough for the pages at the list's new end, small enough for static data. */
export const MAX_REMEMBERED_IDS = 1000;
/** IDs of records the filters refused, kept so that they are emitted once they match. */
export const MAX_PENDING_IDS = 200;
/** IDs kept to recognise where an unread stretch of a newest-first list ends. */
const MAX_GAP_IDS = 100;

/** A stretch of a newest-first list between records already emitted, left unread when a poll ran out of time. */
export interface Gap {
	/** The page to read next. */
	at: PageRef;
	/** IDs remembered before the stretch began: reading stops at the first of them. */
	until: string[];
	/** IDs of the last page read: pages shift while new records arrive, so they may come again. */
	skip: string[];
	/** The newest record date known before the stretch began, if any. */
	newest?: number;
}

export interface Seek {
	at: PageRef;
	/** Epoch ms; without it no record is new until the walk ends. */
	since?: number;
}

/** What the trigger keeps between polls, under the node's static data. */
export interface PollMemory {
	/** Hash of the event, base URL, query parameters and filters: any change starts over. */
	fingerprint: string;
	/** IDs already emitted or known to be old, those nearest the list's new end first. */
	ids: string[];
	/** IDs of records seen but refused by the filters, looked at again whenever they are read. */
	pending: string[];
	/** Where the service adds new records, once its pages or its new records have shown it. */
	order?: ListOrder;
	/** Oldest first: the page holding the newest known records, where the next poll starts. */
	tail?: PageRef;
	/** Order not known yet: where a walk cut short by the poll's time goes on. */
	continueAt?: PageRef;
	/** Newest first: stretches not read yet. */
	gaps: Gap[];
	/**
	 * A walk that has not found its place in the list yet (the first poll's, or one that lost its
	 * place) goes on at `at` to the list's end; meanwhile only records dated after `since` are new.
	 */
	seeking?: Seek;
	/** The newest record date seen (epoch ms): decides when no remembered ID is listed any more. */
	newest?: number;
}

export function configurationFingerprint(configuration: string): string {
	return createHash('sha256').update(configuration).digest('hex').slice(0, 32);
}

function strings(value: unknown): string[] {
	return Array.isArray(value)
		? value.filter((entry): entry is string => typeof entry === 'string')
		: [];
}

function pageRef(value: unknown): PageRef | undefined {
	if (!isRecord(value)) return undefined;
	const url = typeof value.url === 'string' ? value.url : undefined;
	const qs = isRecord(value.qs) ? value.qs : undefined;
	return { ...(url !== undefined && { url }), ...(qs !== undefined && { qs }) };
}

function finite(value: unknown): number | undefined {
	return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function gaps(value: unknown): Gap[] {
	if (!Array.isArray(value)) return [];
	return value.filter(isRecord).flatMap((gap) => {
		const at = pageRef(gap.at);
		return at
			? [{ at, until: strings(gap.until), skip: strings(gap.skip), newest: finite(gap.newest) }]
			: [];
	});
}

function seek(value: unknown): Seek | undefined {
	if (!isRecord(value)) return undefined;
	const at = pageRef(value.at);
	return at ? { at, since: finite(value.since) } : undefined;
}

/** The stored memory when it is intact and belongs to this configuration; otherwise undefined. */
export function readMemory(stored: unknown, configuration: string): PollMemory | undefined {
	if (!isRecord(stored) || !Array.isArray(stored.ids)) return undefined;
	const fingerprint = configurationFingerprint(configuration);
	if (stored.fingerprint !== fingerprint) return undefined;
	const order =
		stored.order === 'newestFirst' || stored.order === 'oldestFirst' ? stored.order : undefined;
	return {
		fingerprint,
		ids: strings(stored.ids),
		pending: strings(stored.pending),
		order,
		tail: pageRef(stored.tail),
		continueAt: pageRef(stored.continueAt),
		gaps: gaps(stored.gaps),
		seeking: seek(stored.seeking),
		newest: finite(stored.newest),
	};
}

/** The memory as stored: absent fields left out, lists capped. */
export function storedMemory(memory: PollMemory): IDataObject {
	const stored: IDataObject = {
		fingerprint: memory.fingerprint,
		ids: memory.ids.slice(0, MAX_REMEMBERED_IDS),
	};
	if (memory.pending.length > 0) stored.pending = memory.pending.slice(0, MAX_PENDING_IDS);
	if (memory.order) stored.order = memory.order;
	if (memory.tail) stored.tail = memory.tail as IDataObject;
	if (memory.continueAt) stored.continueAt = memory.continueAt as IDataObject;
	if (memory.gaps.length > 0) {
		stored.gaps = memory.gaps.map((gap) => ({
			at: gap.at as IDataObject,
			until: gap.until.slice(0, MAX_GAP_IDS),
			skip: gap.skip.slice(0, MAX_REMEMBERED_IDS),
			...(gap.newest !== undefined && { newest: gap.newest }),
		}));
	}
	if (memory.seeking) {
		stored.seeking = {
			at: memory.seeking.at as IDataObject,
			...(memory.seeking.since !== undefined && { since: memory.seeking.since }),
		};
	}
	if (memory.newest !== undefined) stored.newest = memory.newest;
	return stored;
}

/**
 * IDs to remember: `current` (the records just read that are not pending, new end first), then
 * earlier IDs not among them (IDs that left the list stay until newer ones push them out, so a
 * list that comes back short for a moment does not make its records new again).
 */
export function mergeIds(
	current: string[],
	previous: string[],
	limit = MAX_REMEMBERED_IDS,
): string[] {
	const listed = new Set(current);
	return [...current, ...previous.filter((id) => !listed.has(id))].slice(0, limit);
}
