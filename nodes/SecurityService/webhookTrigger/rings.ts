/**
 * The Security Service Webhook Trigger's work. A call of its webhook ("a ring") is only a sign
 * that a list may have changed: whatever the call holds, the trigger reads the event's list with
 * the credential and emits the records not emitted before, as the poll trigger does
 * (`pollNewRecords`). In one process one read runs at a time per trigger node, and rings that
 * arrive meanwhile share the read after it, which starts once the emit before it is recorded.
 * The memory is kept in the node's static data and, for the saves under way, in this process
 * (n8nWebhookContract.ts, A2-A4). Each publication (`activate`, `update`) takes a new memory; only
 * n8n's start (`init`, `leadershipChange`) keeps it. Publishing and unpublishing also withdraw the
 * memory in this process, so that no read or save under way carries the one before past them.
 */
import { createHash } from 'node:crypto';

import {
	type IDataObject,
	type IHookFunctions,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { isRecord } from '../../shared/lists/recordFields';
import { newestNewRecord, pollNewRecords } from '../../shared/polling/newRecords';
import { readEventList, type PollTrigger } from '../../shared/polling/pollFunctions';
import {
	answerWhenRecorded,
	computedAtSave,
	keptInProcess,
	readRawBody,
	reply,
} from '../../shared/webhooks/n8nWebhookContract';
import { POLL_EVENTS } from '../pollTrigger/events';
import { SECURITY_SERVICE } from '../transport';

const SECURITY_EVENTS: PollTrigger = { profile: SECURITY_SERVICE, events: POLL_EVENTS };

/** Key of the memory in the node's static data. */
const MEMORY_KEY = 'seen';
/** A ring's content is never used; a larger one is refused before any request. */
const MAX_RING_BYTES = 1024 * 1024;

/**
 * What the static data holds: the engine's memory, since when the workflow is published, how often
 * the memory changed, and a hash of the configuration (event, filters, ...) it was taken with.
 */
interface StoredMemory {
	memory?: IDataObject;
	publishedAt: string;
	changes: number;
	configuration?: string;
}

/**
 * What this process knows of a trigger node: the newest memory of its publication or, when
 * `withdrawn`, that it was unpublished here or is being published again here since `publishedAt`.
 */
interface Known extends StoredMemory {
	withdrawn?: true;
}

/** A later publication, or more changes of the same one. */
const isNewer = (a: StoredMemory, b: StoredMemory) =>
	a.publishedAt > b.publishedAt || (a.publishedAt === b.publishedAt && a.changes > b.changes);

let lastStamp = 0;
/** Now as an ISO time, later than every time this process gave before. */
function stamp(): string {
	lastStamp = Math.max(Date.now(), lastStamp + 1);
	return new Date(lastStamp).toISOString();
}

const withdrawn = (): Known => ({ publishedAt: stamp(), changes: 0, withdrawn: true });

/** One read of the list, shared by the rings that waited for it. */
interface SharedRead {
	/** Emptied by the ring that starts their execution. */
	records: IDataObject[];
	/** True once the execution of `records` is recorded (at once when there are none); false when it failed. */
	recorded: Promise<boolean>;
	/** Keeps the read's memory when `recorded` is true (also after a false, if no read started since). */
	settle: (recorded: boolean) => void;
	failed?: Error;
	/** The workflow was unpublished or is being published again: nothing read belongs to a publication. */
	outdated?: boolean;
}

/** One trigger node's memory and reads in this process. */
class NodeRings {
	/** The end of the newest read: its records recorded or given up. */
	private lastRead: Promise<unknown> = Promise.resolve();
	private nextRead?: Promise<SharedRead>;
	/** Reads started: a recording that comes after a later read started keeps nothing. */
	reads = 0;

	constructor(public known: Known) {}

	/** The read that starts after the running one, shared by every ring until it starts. */
	share(read: () => Promise<SharedRead>): Promise<SharedRead> {
		if (!this.nextRead) {
			const start = async () => {
				this.nextRead = undefined;
				return await read();
			};
			this.nextRead = this.lastRead.then(start);
			this.lastRead = this.nextRead.then(async ({ recorded }) => await recorded);
		}
		return this.nextRead;
	}

	/** Takes `loaded` (what this call's static data holds) when it is newer: another process changed it. */
	adopt(loaded: StoredMemory | undefined): void {
		if (loaded && isNewer(loaded, this.known)) this.known = loaded;
	}

	/** Unpublished or being published again here: reads and saves under way keep nothing of the memory before. */
	withdraw(): void {
		this.known = withdrawn();
	}
}

/** This process's memory of every trigger node, by workflow and node id. */
export const nodes = new Map<string, NodeRings>();

const keyOf = (ctx: IWebhookFunctions | IHookFunctions) =>
	`${ctx.getWorkflow().id ?? ''}/${ctx.getNode().id}`;

function loadedMemory(ctx: IWebhookFunctions | IHookFunctions): StoredMemory | undefined {
	const stored = ctx.getWorkflowStaticData('node')[MEMORY_KEY];
	if (!isRecord(stored) || typeof stored.publishedAt !== 'string') return undefined;
	return {
		memory: isRecord(stored.memory) ? stored.memory : undefined,
		publishedAt: stored.publishedAt,
		changes: typeof stored.changes === 'number' ? stored.changes : 0,
		configuration: typeof stored.configuration === 'string' ? stored.configuration : undefined,
	};
}

const hashOf = (configuration: string) => createHash('sha256').update(configuration).digest('hex');

/** A3: the node's memory as this process knows it when n8n saves the static data (none once withdrawn). */
const savedAsNewest = (rings: NodeRings) =>
	computedAtSave(() => (rings.known.withdrawn ? undefined : rings.known));

/** checkExists: only n8n's own start keeps the memory; a publication (`activate`, `update`) takes a new one. */
export function keepsMemory(ctx: IHookFunctions): boolean {
	const starting = ['init', 'leadershipChange'].includes(ctx.getActivationMode());
	return starting && loadedMemory(ctx) !== undefined;
}

/** Publishing: reads the list and remembers all it holds, so that none of it is emitted. */
export async function rememberList(ctx: IHookFunctions): Promise<void> {
	const rings = keptInProcess(nodes, keyOf(ctx), () => new NodeRings(withdrawn()));
	rings.withdraw();
	const withdrawal = rings.known;
	const { filters, configuration, list } = await readEventList(ctx, SECURITY_EVENTS);
	const first = await pollNewRecords(list, undefined, configuration, filters);
	const stored: StoredMemory = {
		memory: first.memory,
		publishedAt: stamp(),
		changes: 0,
		configuration: hashOf(configuration),
	};
	if (rings.known === withdrawal) rings.known = stored;
	ctx.getWorkflowStaticData('node')[MEMORY_KEY] = stored as unknown as IDataObject;
}

/** Unpublishing. n8n also ends a test listen with `delete`, on the test's own static data, which holds no memory. */
export function forgetList(ctx: IHookFunctions): void {
	if (loadedMemory(ctx))
		keptInProcess(nodes, keyOf(ctx), () => new NodeRings(withdrawn())).withdraw();
	delete ctx.getWorkflowStaticData('node')[MEMORY_KEY];
}

/** Reads the list from the newest memory; keeps the new memory once the emit is recorded. */
async function readList(
	ctx: IWebhookFunctions,
	rings: NodeRings,
	loaded: StoredMemory | undefined,
): Promise<SharedRead> {
	const shared: SharedRead = {
		records: [],
		recorded: Promise.resolve(true),
		settle: () => {},
	};
	rings.adopt(loaded);
	const from = rings.known;
	if (from.withdrawn) return { ...shared, outdated: true };
	const read = ++rings.reads;
	try {
		const { filters, configuration, list } = await readEventList(ctx, SECURITY_EVENTS);
		const taken = hashOf(configuration);
		// A ring of the version before a publication this process knows: its parameters are not the memory's.
		const olderVersion = from.publishedAt !== loaded?.publishedAt;
		if (olderVersion && from.configuration !== undefined && from.configuration !== taken)
			return { ...shared, outdated: true };
		const poll = await pollNewRecords(list, from.memory, configuration, filters);
		// Unpublished or published again during the read: what it found belongs to no current publication.
		if (rings.known !== from) return { ...shared, outdated: true };
		if (poll.warning) ctx.logger.warn(poll.warning);
		shared.records = poll.records;
		const keep = () => {
			if (rings.known !== from || rings.reads !== read) return;
			const { publishedAt, changes } = from;
			rings.known = {
				memory: poll.memory,
				publishedAt,
				changes: changes + 1,
				configuration: taken,
			};
		};
		shared.recorded = new Promise((resolve) => {
			shared.settle = (recorded) => {
				if (recorded) keep();
				resolve(recorded);
			};
		});
		if (poll.records.length === 0) shared.settle(true);
	} catch (error) {
		shared.failed = error as Error;
		ctx.logger.warn(
			`${ctx.getNode().name}: a webhook call found the list unreadable; nothing was emitted and the service is asked to call again`,
			{ error: (error as Error).message, workflowId: ctx.getWorkflow().id },
		);
	}
	return shared;
}

const items = (records: IDataObject[]) =>
	records.map((json) => ({ json, pairedItem: { item: 0 } }));

/** A ring on the production URL: emits what is new, once, in one execution. */
async function ring(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	const staticData = ctx.getWorkflowStaticData('node');
	const loaded = loadedMemory(ctx);
	const key = keyOf(ctx);
	if (!loaded && !nodes.has(key)) return notReady(ctx);
	const rings = keptInProcess(nodes, key, () => new NodeRings(loaded ?? withdrawn()));
	const read = await rings.share(async () => await readList(ctx, rings, loaded));
	const behind = () =>
		loaded?.changes !== rings.known.changes || loaded.publishedAt !== rings.known.publishedAt;
	if (read.outdated) {
		if (behind()) staticData[MEMORY_KEY] = savedAsNewest(rings);
		return notReady(ctx);
	}
	if (read.failed) {
		return reply(ctx, 503, {
			error: 'list_unreadable',
			message: 'The trigger could not read the list; call again later.',
		});
	}
	const records = read.records.splice(0);
	if (records.length > 0) {
		const newest = savedAsNewest(rings);
		// A2 and A4: kept once the execution exists, written just before n8n saves.
		return answerWhenRecorded(ctx, items(records), (recorded) => {
			read.settle(recorded);
			staticData[MEMORY_KEY] = newest;
		});
	}
	if (!(await read.recorded)) {
		return reply(ctx, 503, {
			error: 'not_recorded',
			message: 'The records this call found could not be recorded; call again.',
		});
	}
	if (behind()) staticData[MEMORY_KEY] = savedAsNewest(rings);
	return reply(ctx, 200, { received: true });
}

/** n8n serves the URL before publishing has saved the memory, and ends rings under way when unpublishing. */
function notReady(ctx: IWebhookFunctions): IWebhookResponseData {
	ctx.logger.warn(
		`${ctx.getNode().name}: a webhook call came before the workflow's list was remembered; it was asked to call again. If this goes on, publish the workflow again.`,
		{ workflowId: ctx.getWorkflow().id },
	);
	return reply(ctx, 503, {
		error: 'not_ready',
		message: 'The workflow is being published; call again in a moment.',
	});
}

/** A ring on the test URL: emits the newest record the filters accept, so that fields can be mapped. */
async function testRing(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	const { filters, list } = await readEventList(ctx, SECURITY_EVENTS);
	const newest = await newestNewRecord(list, filters);
	if (!newest) return reply(ctx, 200, { received: true });
	return answerWhenRecorded(ctx, items([newest]));
}

/** Whatever the call holds: a body over MAX_RING_BYTES is refused; any other starts a read. */
export async function handleRing(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	const declared = Number(ctx.getHeaderData()['content-length'] ?? 0);
	if (declared > MAX_RING_BYTES) return tooLarge(ctx);
	let rawBody: Buffer | undefined;
	try {
		rawBody = await readRawBody(ctx);
	} catch (error) {
		if ((error as { status?: number }).status === 413) return tooLarge(ctx);
		return reply(ctx, 400, {
			error: 'body_unreadable',
			message: 'The call ended before its body.',
		});
	}
	if ((rawBody?.length ?? 0) > MAX_RING_BYTES) return tooLarge(ctx);
	// A production ring answers every failure itself (`readList`).
	if (ctx.getMode() !== 'manual') return await ring(ctx);
	try {
		return await testRing(ctx);
	} catch (error) {
		// Only a test ring (the user's own) is told why.
		return reply(ctx, 503, { error: 'list_unreadable', message: (error as Error).message });
	}
}

function tooLarge(ctx: IWebhookFunctions): IWebhookResponseData {
	return reply(ctx, 413, {
		error: 'payload_too_large',
		message: 'A call may carry at most 1 MiB; it was not read.',
	});
}
