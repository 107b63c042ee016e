import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { setNewest } from './keepNewest';

/**
 * The events a trigger node has started a workflow for, so that a retry of the same event (the
 * service signs every attempt afresh) starts nothing. Keyed on a digest of the body's `id`, or of
 * the raw body where there is none: no secret, signature or payload is kept.
 *
 * Two places hold it:
 * - the workflow's static data (node scope), which n8n saves after each webhook call and every
 *   process (main, webhook processes, after a restart) reads from the database;
 * - this module's memory, per n8n process, which also knows the deliveries being recorded at this
 *   moment, so that identical deliveries arriving together start one workflow.
 *
 * An event counts as started once n8n has saved the static data of its call (n8n saves after it
 * has created the execution) or answered its delivery with a 2xx (n8n answers after saving). A
 * delivery n8n could not record, or whose process dies first, is forgotten again, so the
 * service's retry starts it.
 */

/** Most events kept per trigger node; beyond that the oldest are forgotten first. */
export const MAX_STARTED_EVENTS = 5_000;

/** Field of the node's static data that holds `{ <event digest>: <epoch seconds started> }`. */
export const STATIC_DATA_FIELD = 'startedEvents';

/** Trigger nodes whose memory one process keeps at most; the least recently used goes first. */
const MAX_NODES = 1_000;

type Seen = Map<string, number>;

/** The digest an event is remembered by: 128 bits of SHA-256, base64url. */
export function eventDigest(body: IDataObject, rawBody: Buffer): string {
	const hash = createHash('sha256');
	const { id } = body;
	if ((typeof id === 'string' && id !== '') || (typeof id === 'number' && Number.isFinite(id))) {
		hash.update(`id:${String(id)}`);
	} else {
		hash.update('body:').update(rawBody);
	}
	return hash.digest('base64url').slice(0, 22);
}

/** The events in the static data, ignoring anything that is not `digest → seconds`. */
export function readStored(staticData: IDataObject): Seen {
	const stored = staticData[STATIC_DATA_FIELD];
	const seen: Seen = new Map();
	if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return seen;
	for (const [digest, at] of Object.entries(stored as IDataObject)) {
		if (typeof at === 'number' && Number.isFinite(at)) seen.set(digest, at);
	}
	return seen;
}

/** The events of `seen` started after `since`; beyond MAX_STARTED_EVENTS only the newest. */
function newest(seen: Seen, since: number): Array<[string, number]> {
	const kept = [...seen].filter(([, at]) => at > since);
	if (kept.length <= MAX_STARTED_EVENTS) return kept;
	kept.sort((a, b) => a[1] - b[1]);
	return kept.slice(-MAX_STARTED_EVENTS);
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
	private readonly seen: Seen = new Map();
	private readonly inFlight = new Map<string, Claim>();

	/** Takes in what another process or an earlier run of this one recorded. */
	absorb(stored: Seen): void {
		for (const [digest, at] of stored) {
			const known = this.seen.get(digest);
			if (known !== undefined && known >= at) continue;
			this.seen.set(digest, at);
		}
	}

	startedSince(digest: string, since: number): boolean {
		const at = this.seen.get(digest);
		return at !== undefined && at > since;
	}

	/** How many events started after `since`. */
	countSince(since: number): number {
		let count = 0;
		for (const at of this.seen.values()) if (at > since) count += 1;
		return Math.min(count, MAX_STARTED_EVENTS);
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
		if (started) {
			this.seen.delete(digest);
			this.seen.set(digest, at);
		}
		claim.settle(started);
	}

	/** Events to store: those in `seen` started after `since`, bounded, plus `extra`. */
	snapshot(since: number, extra?: [string, number]): IDataObject {
		const kept: IDataObject = {};
		let count = 0;
		for (const [digest, at] of this.seen) {
			if (at <= since) continue;
			kept[digest] = at;
			count += 1;
		}
		if (extra) {
			if (kept[extra[0]] === undefined) count += 1;
			kept[extra[0]] = extra[1];
		}
		if (count <= MAX_STARTED_EVENTS) return kept;
		return Object.fromEntries(
			newest(new Map(Object.entries(kept) as Array<[string, number]>), since),
		);
	}

	/** Forgets events started at or before `since`, and the oldest beyond the bound. */
	prune(since: number): void {
		// Pruning sorts: let the memory grow a little past the bound between prunes.
		if (this.seen.size <= MAX_STARTED_EVENTS * 1.1) return;
		const kept = newest(this.seen, since);
		this.seen.clear();
		for (const [digest, at] of kept) this.seen.set(digest, at);
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
