import { createHash, randomBytes } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { setNewest } from './keepNewest';

/**
 * The events a trigger node started a workflow for, so that a retry of the same event (the
 * service signs every attempt afresh) starts nothing. An event is known by a digest of the body's
 * `id`, or of the raw body where there is none: no secret, signature or payload is kept.
 *
 * They are kept in the workflow's static data, which every n8n process reads and saves whole on
 * every delivery (when: `n8nWebhookContract.ts`), and in this process's memory, which also knows
 * the deliveries being recorded right now. The static data holds one string per batch,
 * `{ <batchId>: "<added>.<first>.<newest>.<digests>" }`: a batch is at most BATCH_SIZE events one
 * process added to one node within BATCH_SECONDS of start times; `added` counts every digest it
 * ever added, `first` and `newest` are the epoch seconds of its earliest and latest start, and
 * its digests take 12 characters each. A batch is kept until its `newest` leaves the window. A
 * process copies other batches as stored and reads only the digests added since it last saw them,
 * so a delivery costs the same however many events are remembered.
 */

/** Most events kept per trigger node; beyond that the oldest are forgotten first. */
export const MAX_STARTED_EVENTS = 5_000;

/** Field of the node's static data that holds the events. */
export const STATIC_DATA_FIELD = 'startedEvents';

/** Trigger nodes whose memory one process keeps at most; the least recently used goes first. */
const MAX_NODES = 1_000;

/** Digests per batch: each string stays small, so adding one copies little. */
const BATCH_SIZE = 500;
/** Longest span of start times in one batch: how much longer than its window an event may stay. */
const BATCH_SECONDS = 3_600;

/** 72 bits of SHA-256: a chance of about 1 in 10^18 that a new event matches a remembered one. */
const DIGEST_CHARS = 12;

/** The digest an event is remembered by: 72 bits of SHA-256, base64url. */
export function eventDigest(body: IDataObject, rawBody: Buffer): string {
	const hash = createHash('sha256');
	const { id } = body;
	if ((typeof id === 'string' && id !== '') || (typeof id === 'number' && Number.isFinite(id))) {
		hash.update(`id:${String(id)}`);
	} else {
		hash.update('body:').update(rawBody);
	}
	return hash.digest('base64url').slice(0, DIGEST_CHARS);
}

/** One batch as this process last saw it: the parts of its stored string. */
interface Batch {
	added: number;
	first: number;
	newest: number;
	/** DIGEST_CHARS each, in the order they were added. */
	digests: string;
}

function countOf(batch: Batch): number {
	return batch.digests.length / DIGEST_CHARS;
}

function digestAt(batch: Batch, index: number): string {
	return batch.digests.slice(index * DIGEST_CHARS, (index + 1) * DIGEST_CHARS);
}

function batchText(batch: Batch): string {
	return `${batch.added}.${batch.first}.${batch.newest}.${batch.digests}`;
}

/** `"<added>.<first>.<newest>.<digests>"` as a batch, undefined where it is none. */
function parseBatch(value: unknown): Batch | undefined {
	if (typeof value !== 'string') return undefined;
	const parts = value.split('.');
	if (parts.length !== 4) return undefined;
	const [added, first, newest] = parts.slice(0, 3).map(Number);
	const batch = { added, first, newest, digests: parts[3] };
	const valid =
		parts[0] !== '' &&
		Number.isSafeInteger(added) &&
		Number.isSafeInteger(first) &&
		Number.isSafeInteger(newest) &&
		newest >= first &&
		batch.digests.length % DIGEST_CHARS === 0 &&
		added >= countOf(batch);
	return valid ? batch : undefined;
}

/** Keeps `seconds` for `digest` unless `times` already holds a later or equal time for it. */
function keepLatest(times: Map<string, number>, digest: string, seconds: number): void {
	const known = times.get(digest);
	if (known === undefined || known < seconds) times.set(digest, seconds);
}

/** Every event in a stored value, digest → epoch seconds. */
export function readStoredEvents(stored: unknown): Map<string, number> {
	const events = new Map<string, number>();
	if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return events;
	for (const value of Object.values(stored as IDataObject)) {
		const batch = parseBatch(value);
		for (let index = 0; batch && index < countOf(batch); index++)
			keepLatest(events, digestAt(batch, index), batch.newest);
	}
	return events;
}

function newBatchId(): string {
	return randomBytes(9).toString('base64url');
}

/** A delivery of an event being recorded: others of the same event wait until it is released. */
interface Reservation {
	/** Resolves once released: whether the event was started. */
	released: Promise<boolean>;
	release(started: boolean): void;
}

function newReservation(): Reservation {
	let resolve: (started: boolean) => void = () => undefined;
	const released = new Promise<boolean>((done) => (resolve = done));
	let open = true;
	return {
		released,
		release(started) {
			if (!open) return;
			open = false;
			resolve(started);
		},
	};
}

/** One trigger node's events in this process. */
class NodeEvents {
	/** The batch this process adds to; a new one once it is full or would span too long. */
	batchId = newBatchId();
	private readonly batches = new Map<string, Batch>();
	/** Every event of every batch (and some already dropped from them), digest → seconds. */
	private readonly startTimes = new Map<string, number>();
	private readonly reserved = new Map<string, Reservation>();
	private eventCount = 0;

	private remember(digest: string, seconds: number): void {
		keepLatest(this.startTimes, digest, seconds);
	}

	/**
	 * Loads what other processes, or this node's memory before a restart, stored: of each batch only
	 * the digests added since this process last read it.
	 */
	loadStored(stored: unknown): void {
		if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return;
		for (const [batchId, value] of Object.entries(stored as IDataObject)) {
			const batch = parseBatch(value);
			if (!batch) continue;
			const known = this.batches.get(batchId);
			if (known && known.added >= batch.added) continue;
			const count = countOf(batch);
			const added = Math.min(count, batch.added - (known?.added ?? 0));
			for (let index = count - added; index < count; index++)
				this.remember(digestAt(batch, index), batch.newest);
			this.eventCount += count - (known ? countOf(known) : 0);
			this.batches.set(batchId, batch);
		}
	}

	/** Whether the stored value lacks events this process knows (a concurrent save dropped them). */
	storedLacksKnown(stored: unknown): boolean {
		const values =
			stored !== null && typeof stored === 'object' ? (stored as IDataObject) : undefined;
		for (const [batchId, batch] of this.batches) {
			if (countOf(batch) === 0) continue;
			const storedBatch = parseBatch(values?.[batchId]);
			if (!storedBatch || storedBatch.added < batch.added) return true;
		}
		return false;
	}

	startedSince(digest: string, since: number): boolean {
		const at = this.startTimes.get(digest);
		return at !== undefined && at > since;
	}

	/**
	 * `undefined` when the event started after `since`; otherwise a reservation of it, taken once
	 * any delivery of the same event that is being recorded right now has been released.
	 */
	async reserve(digest: string, since: number): Promise<Reservation | undefined> {
		for (;;) {
			if (this.startedSince(digest, since)) return undefined;
			const pending = this.reserved.get(digest);
			if (!pending) break;
			await pending.released;
		}
		const reservation = newReservation();
		this.reserved.set(digest, reservation);
		return reservation;
	}

	/** Ends a reservation: `started` when n8n recorded the execution (saved, or answered 2xx). */
	release(digest: string, reservation: Reservation, started: boolean, at: number): void {
		if (this.reserved.get(digest) !== reservation) return;
		this.reserved.delete(digest);
		if (started && !this.startedSince(digest, at - 1)) this.add(digest, at);
		reservation.release(started);
	}

	/** Adds an event to this process's batch, or to a new one where its time or count does not fit. */
	private add(digest: string, at: number): void {
		const seconds = Math.max(0, Math.floor(at));
		let own = this.batches.get(this.batchId);
		if (
			!own ||
			countOf(own) >= BATCH_SIZE ||
			Math.max(own.newest, seconds) - Math.min(own.first, seconds) > BATCH_SECONDS
		) {
			this.batchId = newBatchId();
			own = { added: 0, first: seconds, newest: seconds, digests: '' };
		}
		this.batches.set(this.batchId, {
			added: own.added + 1,
			first: Math.min(own.first, seconds),
			newest: Math.max(own.newest, seconds),
			digests: own.digests + digest,
		});
		this.eventCount += 1;
		this.remember(digest, seconds);
	}

	/** Drops a batch's first `count` digests, and their start times where no later start is known. */
	private dropOldest(batchId: string, batch: Batch, count: number): void {
		for (let index = 0; index < count; index++) {
			const digest = digestAt(batch, index);
			if (!(this.startTimes.get(digest)! > batch.newest)) this.startTimes.delete(digest);
		}
		const digests = batch.digests.slice(count * DIGEST_CHARS);
		if (digests === '' && batchId !== this.batchId) this.batches.delete(batchId);
		else this.batches.set(batchId, { ...batch, digests });
		this.eventCount -= count;
	}

	/** Forgets batches whose newest start is not after `since`, then the oldest beyond the maximum. */
	private prune(since: number): void {
		for (const [batchId, batch] of this.batches) {
			if (countOf(batch) === 0 && batchId !== this.batchId) this.batches.delete(batchId);
			if (countOf(batch) > 0 && !(batch.newest > since))
				this.dropOldest(batchId, batch, countOf(batch));
		}
		while (this.eventCount > MAX_STARTED_EVENTS) {
			let oldest: [string, Batch] | undefined;
			for (const [batchId, batch] of this.batches) {
				if (countOf(batch) > 0 && (!oldest || batch.newest < oldest[1].newest))
					oldest = [batchId, batch];
			}
			if (!oldest) break;
			this.dropOldest(oldest[0], oldest[1], 1);
		}
		if (this.startTimes.size > MAX_STARTED_EVENTS * 2) this.rebuildStartTimes();
	}

	/** Builds the start times anew from the batches (they also hold events other batches dropped). */
	private rebuildStartTimes(): void {
		this.startTimes.clear();
		for (const batch of this.batches.values())
			for (let index = 0; index < countOf(batch); index++)
				this.remember(digestAt(batch, index), batch.newest);
	}

	/** What to store: every batch's events started after `since`, at most about MAX_STARTED_EVENTS. */
	valueToStore(since: number): IDataObject {
		this.prune(since);
		const value: IDataObject = {};
		for (const [batchId, batch] of this.batches) {
			if (countOf(batch) > 0) value[batchId] = batchText(batch);
		}
		return value;
	}
}

const nodes = new Map<string, NodeEvents>();

/** This process's memory of one trigger node (workflow id and node id). */
export function nodeEvents(workflowId: string, nodeId: string): NodeEvents {
	const scope = `${workflowId}\n${nodeId}`;
	const events = nodes.get(scope) ?? new NodeEvents();
	setNewest(nodes, scope, events, MAX_NODES);
	return events;
}

/** Forgets everything this process remembers, as a restart would (tests). */
export function forgetProcessMemory(): void {
	nodes.clear();
}

export type { NodeEvents, Reservation };
