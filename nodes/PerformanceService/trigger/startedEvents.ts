import { createHash, randomBytes } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { setNewest } from './keepNewest';

/**
 * The events a trigger node has started a workflow for, so that a retry of the same event (the
 * service signs every attempt afresh) starts nothing. Keyed on a digest of the body's `id`, or of
 * the raw body where there is none: no secret, signature or payload is kept.
 *
 * Two places hold it: the workflow's static data, which every n8n process reads, and this
 * module's memory per process, which also knows the deliveries being recorded at this moment.
 * When n8n reads and saves the static data is `n8nWebhookContract.ts`'s concern, not this one's.
 *
 * The static data holds one string per origin, `{ <origin>: "<appended>.<records>" }`. An origin
 * is one process's memory of one trigger node (new at every start); `appended` counts every
 * record that origin ever added; its records, oldest first, are 28 characters each: the 22 of
 * the digest, then the start time in epoch seconds as 6 base64url digits. A process copies the
 * strings of other origins as they are and decodes only the records added since it last read
 * them, so a delivery costs the same however many events are remembered.
 */

/** Most events kept per trigger node; beyond that the oldest are forgotten first. */
export const MAX_STARTED_EVENTS = 5_000;

/** Field of the node's static data that holds the events. */
export const STATIC_DATA_FIELD = 'startedEvents';

/** Trigger nodes whose memory one process keeps at most; the least recently used goes first. */
const MAX_NODES = 1_000;

const DIGEST_CHARS = 22;
const TIME_CHARS = 6;
const RECORD_CHARS = DIGEST_CHARS + TIME_CHARS;
const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const DIGIT_VALUES = new Map([...DIGITS].map((digit, value) => [digit.charCodeAt(0), value]));

/** The digest an event is remembered by: 132 bits of SHA-256, base64url. */
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

function encodeRecord(digest: string, seconds: number): string {
	let time = '';
	let rest = Math.max(0, Math.floor(seconds));
	for (let index = 0; index < TIME_CHARS; index++) {
		time = DIGITS[rest % 64] + time;
		rest = Math.floor(rest / 64);
	}
	return digest + time;
}

/** The time of the record at `index`, or NaN where the text is not a record. */
function recordSeconds(records: string, index: number): number {
	let seconds = 0;
	const start = index * RECORD_CHARS + DIGEST_CHARS;
	for (let at = start; at < start + TIME_CHARS; at++) {
		const value = DIGIT_VALUES.get(records.charCodeAt(at));
		if (value === undefined) return NaN;
		seconds = seconds * 64 + value;
	}
	return seconds;
}

function recordDigest(records: string, index: number): string {
	return records.slice(index * RECORD_CHARS, index * RECORD_CHARS + DIGEST_CHARS);
}

/** One origin's records as this process last saw them. */
interface Segment {
	appended: number;
	records: string;
}

function countOf(segment: Segment): number {
	return segment.records.length / RECORD_CHARS;
}

/** `"<appended>.<records>"`, or undefined where the text is not in that form. */
function parseSegment(value: unknown): Segment | undefined {
	if (typeof value !== 'string') return undefined;
	const dot = value.indexOf('.');
	const appended = Number(value.slice(0, dot));
	const records = value.slice(dot + 1);
	if (dot < 1 || !Number.isSafeInteger(appended) || records.length % RECORD_CHARS !== 0)
		return undefined;
	return appended >= records.length / RECORD_CHARS ? { appended, records } : undefined;
}

/** Every event in a stored value, digest → epoch seconds (also the format before origins). */
export function readStoredEvents(stored: unknown): Map<string, number> {
	const events = new Map<string, number>();
	if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return events;
	for (const [key, value] of Object.entries(stored as IDataObject)) {
		if (typeof value === 'number' && Number.isFinite(value) && key.length === DIGEST_CHARS)
			events.set(key, value);
		const segment = parseSegment(value);
		for (let index = 0; segment && index < countOf(segment); index++) {
			const seconds = recordSeconds(segment.records, index);
			if (!Number.isNaN(seconds)) events.set(recordDigest(segment.records, index), seconds);
		}
	}
	return events;
}

interface Claim {
	settled: Promise<boolean>;
	settle(started: boolean): void;
}

function newClaim(): Claim {
	let resolve: (started: boolean) => void = () => undefined;
	const settled = new Promise<boolean>((done) => (resolve = done));
	let open = true;
	return {
		settled,
		settle(started) {
			if (!open) return;
			open = false;
			resolve(started);
		},
	};
}

/** One trigger node's events in this process. */
class NodeEvents {
	readonly origin = randomBytes(9).toString('base64url');
	private readonly segments = new Map<string, Segment>([
		[this.origin, { appended: 0, records: '' }],
	]);
	/** Every event of every segment (and some already trimmed from them), digest → seconds. */
	private readonly index = new Map<string, number>();
	private readonly inFlight = new Map<string, Claim>();
	private total = 0;

	private get own(): Segment {
		return this.segments.get(this.origin)!;
	}

	private remember(digest: string, seconds: number): void {
		const known = this.index.get(digest);
		if (known === undefined || known < seconds) this.index.set(digest, seconds);
	}

	/**
	 * Takes in what other processes, or this node's memory before a restart, stored: only the
	 * records each origin added since this process last read it are decoded.
	 */
	absorb(stored: unknown): void {
		if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return;
		const beforeOrigins: Array<[string, number]> = [];
		for (const [key, value] of Object.entries(stored as IDataObject)) {
			if (key === this.origin) continue;
			if (typeof value === 'number') {
				if (key.length === DIGEST_CHARS && Number.isFinite(value) && !this.index.has(key))
					beforeOrigins.push([key, value]);
				continue;
			}
			const segment = parseSegment(value);
			const known = this.segments.get(key);
			if (!segment || (known && known.appended >= segment.appended)) continue;
			const count = countOf(segment);
			const added = Math.min(count, segment.appended - (known?.appended ?? 0));
			for (let index = count - added; index < count; index++) {
				const seconds = recordSeconds(segment.records, index);
				if (!Number.isNaN(seconds)) this.remember(recordDigest(segment.records, index), seconds);
			}
			this.total += count - (known ? countOf(known) : 0);
			this.segments.set(key, segment);
		}
		// Stored before origins existed: taken in as this origin's own, oldest first.
		beforeOrigins.sort((a, b) => a[1] - b[1]);
		for (const [digest, seconds] of beforeOrigins) this.append(digest, seconds);
	}

	/** Whether the stored value lacks records this process knows (a concurrent save dropped them). */
	storedLacksKnown(stored: unknown): boolean {
		const values =
			stored !== null && typeof stored === 'object' ? (stored as IDataObject) : undefined;
		for (const [origin, segment] of this.segments) {
			if (countOf(segment) === 0) continue;
			const storedSegment = parseSegment(values?.[origin]);
			if (!storedSegment || storedSegment.appended < segment.appended) return true;
		}
		return false;
	}

	startedSince(digest: string, since: number): boolean {
		const at = this.index.get(digest);
		return at !== undefined && at > since;
	}

	/**
	 * `undefined` when the event started after `since`; otherwise a claim on it, taken once any
	 * delivery of the same event that is being recorded right now has been answered.
	 */
	async claim(digest: string, since: number): Promise<Claim | undefined> {
		for (;;) {
			if (this.startedSince(digest, since)) return undefined;
			const pending = this.inFlight.get(digest);
			if (!pending) break;
			await pending.settled;
		}
		const claim = newClaim();
		this.inFlight.set(digest, claim);
		return claim;
	}

	/** Ends a claim: `started` when n8n recorded the execution (saved, or answered with a 2xx). */
	settle(digest: string, claim: Claim, started: boolean, at: number): void {
		if (this.inFlight.get(digest) !== claim) return;
		this.inFlight.delete(digest);
		if (started && !this.startedSince(digest, at - 1)) this.append(digest, at);
		claim.settle(started);
	}

	private append(digest: string, seconds: number): void {
		const own = this.own;
		this.segments.set(this.origin, {
			appended: own.appended + 1,
			records: own.records + encodeRecord(digest, seconds),
		});
		this.total += 1;
		this.remember(digest, seconds);
	}

	/** Drops the first `count` records of a segment, and from the index those it holds for them. */
	private dropOldest(origin: string, segment: Segment, count: number): void {
		for (let index = 0; index < count; index++) {
			const digest = recordDigest(segment.records, index);
			if (this.index.get(digest) === recordSeconds(segment.records, index))
				this.index.delete(digest);
		}
		const records = segment.records.slice(count * RECORD_CHARS);
		if (records === '' && origin !== this.origin) this.segments.delete(origin);
		else this.segments.set(origin, { appended: segment.appended, records });
		this.total -= count;
	}

	/** Forgets events started at or before `since`, and the oldest beyond MAX_STARTED_EVENTS. */
	private prune(since: number): void {
		for (const [origin, segment] of this.segments) {
			let expired = 0;
			while (expired < countOf(segment) && !(recordSeconds(segment.records, expired) > since))
				expired += 1;
			if (expired > 0) this.dropOldest(origin, segment, expired);
		}
		while (this.total > MAX_STARTED_EVENTS) {
			let oldest: [string, Segment, number] | undefined;
			for (const [origin, segment] of this.segments) {
				if (countOf(segment) === 0) continue;
				const seconds = recordSeconds(segment.records, 0);
				if (!oldest || seconds < oldest[2]) oldest = [origin, segment, seconds];
			}
			if (!oldest) break;
			this.dropOldest(oldest[0], oldest[1], 1);
		}
		if (this.index.size > MAX_STARTED_EVENTS * 2) this.reindex();
	}

	/** Builds the index anew from the segments (it also holds records other origins trimmed). */
	private reindex(): void {
		this.index.clear();
		for (const segment of this.segments.values())
			for (let index = 0; index < countOf(segment); index++)
				this.remember(recordDigest(segment.records, index), recordSeconds(segment.records, index));
	}

	/** What to store: every origin's records started after `since`, at most about MAX_STARTED_EVENTS. */
	stored(since: number): IDataObject {
		this.prune(since);
		const value: IDataObject = {};
		for (const [origin, segment] of this.segments) {
			if (countOf(segment) > 0) value[origin] = `${segment.appended}.${segment.records}`;
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

export type { Claim, NodeEvents };
