import { createHash, randomBytes } from 'node:crypto';

import {
	NodeOperationError,
	type IDataObject,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { isRecord } from '../../shared/lists/recordFields';
import {
	answerWhenRecorded,
	computedAtSave,
	keptInProcess,
} from '../../shared/webhooks/n8nWebhookContract';

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
 * process keeps each batch as stored (the newest version it saw) and searches the strings.
 */

/** Most events kept per trigger node; beyond that the oldest are forgotten first. */
const MAX_STARTED_EVENTS = 5_000;
/** Field of the node's static data that holds the events. */
export const STATIC_DATA_FIELD = 'startedEvents';
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
	if ((typeof id === 'string' && id !== '') || Number.isFinite(id)) {
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

const countOf = (batch: Batch): number => batch.digests.length / DIGEST_CHARS;

/** `"<added>.<first>.<newest>.<digests>"` as a batch of at least one event, else undefined. */
function parseBatch(value: unknown): Batch | undefined {
	if (typeof value !== 'string') return undefined;
	const parts = value.split('.');
	const [added, first, newest] = parts.map(Number);
	const batch = { added, first, newest, digests: parts[3] };
	const valid =
		parts.length === 4 &&
		[added, first, newest].every(Number.isSafeInteger) &&
		newest >= first &&
		batch.digests.length % DIGEST_CHARS === 0 &&
		countOf(batch) > 0 &&
		added >= countOf(batch);
	return valid ? batch : undefined;
}

const asObject = (value: unknown): IDataObject => (isRecord(value) ? value : {});

/** Ends a reservation of an event: `started` when n8n recorded the execution (saved, or answered 2xx). */
export type Release = (started: boolean, at: number) => void;

/** Whether `batch` holds `digest` (at a digest's boundary). */
function holds(batch: Batch, digest: string): boolean {
	let at = batch.digests.indexOf(digest);
	while (at % DIGEST_CHARS !== 0 && at !== -1) at = batch.digests.indexOf(digest, at + 1);
	return at !== -1;
}

/** One trigger node's events in this process. */
export class NodeEvents {
	/** The batch this process adds to; a new one once it is full or would span too long. */
	batchId = randomBytes(9).toString('base64url');
	/** Every batch as this process last saw or wrote it. */
	private readonly batches = new Map<string, Batch>();
	/** The deliveries of an event being recorded: others of the same event wait until it is settled. */
	private readonly reserved = new Map<string, Promise<void>>();

	/** Takes what other processes (or this one before a restart) stored, where it is newer. */
	loadStored(stored: unknown): void {
		for (const [batchId, value] of Object.entries(asObject(stored))) {
			const batch = parseBatch(value);
			if (batch && (this.batches.get(batchId)?.added ?? -1) < batch.added)
				this.batches.set(batchId, batch);
		}
	}

	/** Whether the stored value lacks events this process knows (a concurrent save dropped them). */
	storedLacksKnown(stored: unknown): boolean {
		const values = asObject(stored);
		return [...this.batches].some(
			([batchId, batch]) => (parseBatch(values[batchId])?.added ?? 0) < batch.added,
		);
	}

	/** Whether the event started after `since`: a batch whose newest start is later holds it. */
	private startedSince(digest: string, since: number): boolean {
		for (const batch of this.batches.values())
			if (batch.newest > since && holds(batch, digest)) return true;
		return false;
	}

	/**
	 * `undefined` when the event started after `since`; otherwise a reservation of it, taken once
	 * any delivery of the same event being recorded right now has been settled.
	 */
	async reserve(digest: string, since: number): Promise<Release | undefined> {
		while (!this.startedSince(digest, since)) {
			const pending = this.reserved.get(digest);
			if (pending) {
				await pending;
				continue;
			}
			let settle = (): void => undefined;
			const settled = new Promise<void>((resolve) => (settle = resolve));
			this.reserved.set(digest, settled);
			let counted = false;
			return (started, at) => {
				// Also when n8n records it after the reservation ended (past the grace): kept all the same.
				if (started && !counted) {
					counted = true;
					if (!this.startedSince(digest, at - 1)) this.add(digest, at);
				}
				if (this.reserved.get(digest) !== settled) return;
				this.reserved.delete(digest);
				settle();
			};
		}
		return undefined;
	}

	/** Adds an event to this process's batch, or to a new one where its time or count does not fit. */
	private add(digest: string, seconds: number): void {
		let own = this.batches.get(this.batchId);
		if (
			!own ||
			countOf(own) >= BATCH_SIZE ||
			Math.max(own.newest, seconds) - Math.min(own.first, seconds) > BATCH_SECONDS
		) {
			this.batchId = randomBytes(9).toString('base64url');
			own = { added: 0, first: seconds, newest: seconds, digests: '' };
		}
		this.batches.set(this.batchId, {
			added: own.added + 1,
			first: Math.min(own.first, seconds),
			newest: Math.max(own.newest, seconds),
			digests: own.digests + digest,
		});
	}

	/** Drops a batch's first `count` digests; an emptied batch goes (this process then starts a new one). */
	private dropOldest(batchId: string, batch: Batch, count: number): void {
		const digests = batch.digests.slice(count * DIGEST_CHARS);
		if (digests === '') this.batches.delete(batchId);
		else this.batches.set(batchId, { ...batch, digests });
	}

	/** What to store: the events started after `since`, at most MAX_STARTED_EVENTS, oldest forgotten first. */
	valueToStore(since: number): IDataObject {
		let count = 0;
		for (const [batchId, batch] of this.batches) {
			if (batch.newest > since) count += countOf(batch);
			else this.dropOldest(batchId, batch, countOf(batch));
		}
		while (count > MAX_STARTED_EVENTS) {
			const [batchId, oldest] = [...this.batches].reduce((a, b) =>
				b[1].newest < a[1].newest ? b : a,
			);
			const drop = Math.min(count - MAX_STARTED_EVENTS, countOf(oldest));
			this.dropOldest(batchId, oldest, drop);
			count -= drop;
		}
		const value: IDataObject = {};
		for (const [batchId, { added, first, newest, digests }] of this.batches)
			value[batchId] = `${added}.${first}.${newest}.${digests}`;
		return value;
	}
}

/** This process's memory of every trigger node, by workflow and node id: what a restart forgets. */
export const processMemory = new Map<string, NodeEvents>();

/**
 * Starts the workflow with `item`, a verified delivery of a selected event, answered by n8n once
 * the execution is recorded; `undefined` when this trigger node already started a workflow for
 * the same event within `windowSeconds` (in this process, in another one, or before a restart).
 * A window of 0 turns the check off.
 */
export async function startOncePerEvent(
	ctx: IWebhookFunctions,
	body: IDataObject,
	rawBody: Buffer,
	item: IDataObject,
	windowSeconds: number,
	receivedAtMs: number,
): Promise<IWebhookResponseData | undefined> {
	const staticData = ctx.getWorkflowStaticData('node');
	if (windowSeconds <= 0) {
		// A4: deleted when n8n reads the answer, so that the save holds it (a failed save holds nothing).
		return answerWhenRecorded(ctx, [{ json: item }], () => {
			if (staticData[STATIC_DATA_FIELD] !== undefined) delete staticData[STATIC_DATA_FIELD];
		});
	}
	// Test runs from the editor always start: a delivery sent to the Test URL is one the user asked for.
	if (ctx.getMode() === 'manual') return answerWhenRecorded(ctx, [{ json: item }]);

	const now = Math.floor(receivedAtMs / 1000);
	const since = now - windowSeconds;
	const scope = `${ctx.getWorkflow().id ?? ''}\n${ctx.getNode().id}`;
	const events = keptInProcess(processMemory, scope, () => new NodeEvents());
	// A3: what every process saved, as this call loaded it.
	const stored = staticData[STATIC_DATA_FIELD];
	events.loadStored(stored);

	const digest = eventDigest(body, rawBody);
	const release = await events.reserve(digest, since);
	// A3: listed when n8n saves, so the save holds every event this process knows by then, also
	// those whose own saves came a moment earlier.
	const listed = computedAtSave(() => {
		release?.(true, now);
		return events.valueToStore(since);
	});
	if (!release) {
		// Puts back what this process knows and a concurrent save dropped from the database.
		if (events.storedLacksKnown(stored)) staticData[STATIC_DATA_FIELD] = listed;
		return undefined;
	}

	staticData[STATIC_DATA_FIELD] = listed;
	// A2: when n8n reads the answer the execution exists: the event counts as started from then on.
	// A4: the events are written again then, just before n8n saves. A5: a non-2xx answer releases
	// the reservation as not started (n8n created no execution); a sender that went away leaves it
	// to A2 for RECORDING_GRACE_MS.
	try {
		return answerWhenRecorded(ctx, [{ json: item }], (recorded) => {
			release(recorded, now);
			staticData[STATIC_DATA_FIELD] = listed;
		});
	} catch (error) {
		// No answer to wait for (no response object): nothing will settle the reservation later.
		release(false, now);
		throw new NodeOperationError(ctx.getNode(), error as Error);
	}
}
