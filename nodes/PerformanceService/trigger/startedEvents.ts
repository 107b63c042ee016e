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
 * n8n reads and writes the whole static data on every delivery, so it is kept small: one string
 * per origin, `{ <origin>: "<appended>.<first>.<newest>.<records>" }`. An origin is a run of at
 * most ORIGIN_RECORDS events one process added to one trigger node's memory within one
 * SEGMENT_SECONDS span; `appended` counts every record it ever added; `first` and `newest` are the
 * epoch seconds of its earliest and latest start; its records are the 12 characters of a digest
 * each. A record is kept until `newest` leaves the window: never shorter than its own start allows,
 * at most SEGMENT_SECONDS longer. A process copies the strings of other origins as they are and
 * decodes only the records added since it last read them, so a delivery costs the same however
 * many events are remembered.
 */

/** Most events kept per trigger node; beyond that the oldest are forgotten first. */
export const MAX_STARTED_EVENTS = 5_000;

/** Field of the node's static data that holds the events. */
export const STATIC_DATA_FIELD = 'startedEvents';

/** Trigger nodes whose memory one process keeps at most; the least recently used goes first. */
const MAX_NODES = 1_000;

/** Records per origin: each string stays small, so adding one copies little. */
const ORIGIN_RECORDS = 500;
/** Longest span of start times in one origin: how much longer than its window a record may stay. */
const SEGMENT_SECONDS = 3_600;

/** 72 bits of SHA-256: a chance of about 1 in 10^18 that a new event matches a remembered one. */
const DIGEST_CHARS = 12;
const RECORD_CHARS = DIGEST_CHARS;
/** The format before: `"<appended>.<base>.<records>"`, the digest and 3 digits of seconds after `base`. */
const OFFSET_CHARS = 3;
const TIMED_RECORD_CHARS = DIGEST_CHARS + OFFSET_CHARS;
/** Formats before those: digest → seconds, then `"<appended>.<records>"` of 22 + 6 characters. */
const LEGACY_DIGEST_CHARS = 22;
const LEGACY_TIME_CHARS = 6;
const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const DIGIT_VALUES = new Map([...DIGITS].map((digit, value) => [digit.charCodeAt(0), value]));

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

/** The number `count` base64url digits from `start` stand for, or NaN where they are not digits. */
function decodeDigits(text: string, start: number, count: number): number {
	let value = 0;
	for (let at = start; at < start + count; at++) {
		const digit = DIGIT_VALUES.get(text.charCodeAt(at));
		if (digit === undefined) return NaN;
		value = value * 64 + digit;
	}
	return value;
}

/** One origin's records as this process last saw them. */
interface Segment {
	appended: number;
	/** Epoch seconds: the earliest start, or in the format before, the base of the offsets. */
	first: number;
	/** Epoch seconds of the latest start: the time every record of this format is kept by. */
	newest: number;
	records: string;
	/** Characters per record: RECORD_CHARS, or an earlier format's (a time in every record). */
	width: number;
}

function countOf(segment: Segment): number {
	return segment.records.length / segment.width;
}

function recordDigest(segment: Segment, index: number): string {
	const start = index * segment.width;
	return segment.records.slice(start, start + DIGEST_CHARS);
}

/** The start time of the record at `index`, or NaN where the text is not a record. */
function recordSeconds(segment: Segment, index: number): number {
	const start = index * segment.width;
	if (segment.width === RECORD_CHARS) return segment.newest;
	if (segment.width === TIMED_RECORD_CHARS)
		return segment.first + decodeDigits(segment.records, start + DIGEST_CHARS, OFFSET_CHARS);
	return decodeDigits(segment.records, start + LEGACY_DIGEST_CHARS, LEGACY_TIME_CHARS);
}

function segmentText(segment: Segment): string {
	return `${segment.appended}.${segment.first}.${segment.newest}.${segment.records}`;
}

/** The parts of a stored string after `appended`, by format; undefined where it is none. */
function segmentParts(parts: string[]): Omit<Segment, 'appended'> | undefined {
	const [first, newest] = parts.slice(1, -1).map(Number);
	const records = parts[parts.length - 1] ?? '';
	if (parts.length === 4) return { first, newest, records, width: RECORD_CHARS };
	if (parts.length === 3) return { first, newest: first, records, width: TIMED_RECORD_CHARS };
	if (parts.length === 2)
		return { first: 0, newest: 0, records, width: LEGACY_DIGEST_CHARS + LEGACY_TIME_CHARS };
	return undefined;
}

/** `"<appended>.<first>.<newest>.<records>"` (or a format before it), undefined where it is none. */
function parseSegment(value: unknown): Segment | undefined {
	if (typeof value !== 'string') return undefined;
	const parts = value.split('.');
	const appended = Number(parts[0]);
	const rest = segmentParts(parts);
	if (!rest) return undefined;
	const segment = { appended, ...rest };
	const valid =
		parts[0] !== '' &&
		Number.isSafeInteger(appended) &&
		Number.isSafeInteger(segment.first) &&
		Number.isSafeInteger(segment.newest) &&
		segment.newest >= segment.first &&
		segment.records.length % segment.width === 0 &&
		appended >= countOf(segment);
	return valid ? segment : undefined;
}

/** Keeps `seconds` for `digest` unless `times` already holds a later or equal time for it. */
function keepLatest(times: Map<string, number>, digest: string, seconds: number): void {
	const known = times.get(digest);
	if (known === undefined || known < seconds) times.set(digest, seconds);
}

/** Every event in a stored value, digest → epoch seconds (also the formats before this one). */
export function readStoredEvents(stored: unknown): Map<string, number> {
	const events = new Map<string, number>();
	if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return events;
	for (const [key, value] of Object.entries(stored as IDataObject)) {
		if (typeof value === 'number' && Number.isFinite(value) && key.length === LEGACY_DIGEST_CHARS)
			keepLatest(events, key.slice(0, DIGEST_CHARS), value);
		const segment = parseSegment(value);
		for (let index = 0; segment && index < countOf(segment); index++) {
			const seconds = recordSeconds(segment, index);
			if (!Number.isNaN(seconds)) keepLatest(events, recordDigest(segment, index), seconds);
		}
	}
	return events;
}

function newOrigin(): string {
	return randomBytes(9).toString('base64url');
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
	/** The origin this process adds to; a new one once it holds ORIGIN_RECORDS. */
	origin = newOrigin();
	private readonly segments = new Map<string, Segment>();
	/** Every event of every segment (and some already trimmed from them), digest → seconds. */
	private readonly index = new Map<string, number>();
	private readonly inFlight = new Map<string, Claim>();
	private total = 0;

	private remember(digest: string, seconds: number): void {
		keepLatest(this.index, digest, seconds);
	}

	/**
	 * Takes in what other processes, or this node's memory before a restart, stored: only the
	 * records each origin added since this process last read it are decoded.
	 */
	absorb(stored: unknown): void {
		if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return;
		const earlierFormats: Array<[string, number]> = [];
		const takeIn = (digest: string, seconds: number): void => {
			if (Number.isNaN(seconds)) return;
			if (!(this.index.get(digest)! >= seconds)) earlierFormats.push([digest, seconds]);
		};
		for (const [key, value] of Object.entries(stored as IDataObject)) {
			if (typeof value === 'number') {
				if (key.length === LEGACY_DIGEST_CHARS && Number.isFinite(value))
					takeIn(key.slice(0, DIGEST_CHARS), value);
				continue;
			}
			const segment = parseSegment(value);
			if (segment?.width !== RECORD_CHARS) {
				for (let index = 0; segment && index < countOf(segment); index++)
					takeIn(recordDigest(segment, index), recordSeconds(segment, index));
				continue;
			}
			const known = this.segments.get(key);
			if (known && known.appended >= segment.appended) continue;
			const count = countOf(segment);
			const added = Math.min(count, segment.appended - (known?.appended ?? 0));
			for (let index = count - added; index < count; index++) {
				const seconds = recordSeconds(segment, index);
				if (!Number.isNaN(seconds)) this.remember(recordDigest(segment, index), seconds);
			}
			this.total += count - (known ? countOf(known) : 0);
			this.segments.set(key, segment);
		}
		// Stored in an earlier format: taken in as this process's own, oldest first.
		earlierFormats.sort((a, b) => a[1] - b[1]);
		for (const [digest, seconds] of earlierFormats) this.append(digest, seconds);
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

	/** Adds a record to this process's origin, or to a new one where its time or count would not fit. */
	private append(digest: string, at: number): void {
		const seconds = Math.max(0, Math.floor(at));
		let own = this.segments.get(this.origin);
		if (
			!own ||
			countOf(own) >= ORIGIN_RECORDS ||
			Math.max(own.newest, seconds) - Math.min(own.first, seconds) > SEGMENT_SECONDS
		) {
			this.origin = newOrigin();
			own = { appended: 0, first: seconds, newest: seconds, records: '', width: RECORD_CHARS };
		}
		this.segments.set(this.origin, {
			appended: own.appended + 1,
			first: Math.min(own.first, seconds),
			newest: Math.max(own.newest, seconds),
			records: own.records + digest,
			width: RECORD_CHARS,
		});
		this.total += 1;
		this.remember(digest, seconds);
	}

	/** Drops the first `count` records of a segment, and from the index those it holds for them. */
	private dropOldest(origin: string, segment: Segment, count: number): void {
		for (let index = 0; index < count; index++) {
			const digest = recordDigest(segment, index);
			if (!(this.index.get(digest)! > recordSeconds(segment, index))) this.index.delete(digest);
		}
		const records = segment.records.slice(count * segment.width);
		if (records === '' && origin !== this.origin) this.segments.delete(origin);
		else this.segments.set(origin, { ...segment, records });
		this.total -= count;
	}

	/** Forgets events started at or before `since`, and the oldest beyond MAX_STARTED_EVENTS. */
	private prune(since: number): void {
		for (const [origin, segment] of this.segments) {
			if (countOf(segment) === 0 && origin !== this.origin) this.segments.delete(origin);
			let expired = 0;
			while (expired < countOf(segment) && !(recordSeconds(segment, expired) > since)) expired += 1;
			if (expired > 0) this.dropOldest(origin, segment, expired);
		}
		while (this.total > MAX_STARTED_EVENTS) {
			let oldest: [string, Segment, number] | undefined;
			for (const [origin, segment] of this.segments) {
				if (countOf(segment) === 0) continue;
				const seconds = recordSeconds(segment, 0);
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
				this.remember(recordDigest(segment, index), recordSeconds(segment, index));
	}

	/** What to store: every origin's records started after `since`, at most about MAX_STARTED_EVENTS. */
	stored(since: number): IDataObject {
		this.prune(since);
		const value: IDataObject = {};
		for (const [origin, segment] of this.segments) {
			if (countOf(segment) > 0) value[origin] = segmentText(segment);
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
