import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import {
	eventDigest,
	nodeEvents,
	readStored,
	STATIC_DATA_FIELD,
	type Claim,
	type NodeEvents,
} from './startedEvents';

/** The parts of n8n's response object (a Node.js ServerResponse) that tell how a delivery was answered. */
interface AnsweredResponse {
	statusCode: number;
	once?: (event: 'finish' | 'close', listener: () => void) => unknown;
}

/**
 * What the call writes into the static data: the events are listed when n8n serialises it to
 * save it, not now. n8n saves the static data whole, and several deliveries are in progress at
 * once, each with its own copy loaded at its start; the last save wins. Listing at save time
 * puts into each save every event this process knows started by then, including those whose own
 * save came a moment earlier, so a later save does not drop them. n8n saves after it has
 * created the execution, so the call's own event counts as started from its save on.
 */
function eventsListedAtSave(list: () => IDataObject, saved: () => void): IDataObject {
	const listed = {
		toJSON: (): IDataObject => {
			saved();
			return list();
		},
	};
	return listed as unknown as IDataObject;
}

/** Ends the claim when n8n has answered: started when the answer is a 2xx (n8n sends it once the execution exists). */
function settleWhenAnswered(
	res: AnsweredResponse,
	events: NodeEvents,
	digest: string,
	claim: Claim,
	at: number,
): void {
	if (typeof res.once !== 'function') {
		events.settle(digest, claim, true, at);
		return;
	}
	res.once('finish', () => {
		events.settle(digest, claim, res.statusCode >= 200 && res.statusCode < 300, at);
	});
	res.once('close', () => {
		events.settle(digest, claim, false, at);
	});
}

export interface StartOnceOptions {
	body: IDataObject;
	rawBody: Buffer;
	/** How long a started event is remembered; 0 turns the check off. */
	windowSeconds: number;
	receivedAtMs: number;
}

/** Writes the event into the static data again; call it when n8n reads the answer, just before it saves. */
export type WriteBeforeSave = () => void;

const NOTHING_TO_WRITE: WriteBeforeSave = () => undefined;

/**
 * Whether a verified delivery of a selected event may start the workflow: `undefined` when this
 * trigger node already started a workflow for the same event within the window (in this process,
 * in another one, or before a restart). Otherwise the event is written into the static data n8n
 * saves before it answers, and remembered here from that save on.
 */
export async function claimEventStart(
	ctx: IWebhookFunctions,
	options: StartOnceOptions,
): Promise<WriteBeforeSave | undefined> {
	const staticData = ctx.getWorkflowStaticData('node');
	if (options.windowSeconds <= 0) {
		if (staticData[STATIC_DATA_FIELD] !== undefined) delete staticData[STATIC_DATA_FIELD];
		return NOTHING_TO_WRITE;
	}
	// Test runs from the editor always start: a delivery sent to the Test URL is one the user asked for.
	if (ctx.getMode() === 'manual') return NOTHING_TO_WRITE;

	const now = Math.floor(options.receivedAtMs / 1000);
	const since = now - options.windowSeconds;
	const stored = readStored(staticData);
	const events = nodeEvents(ctx.getWorkflow().id ?? '', ctx.getNode().id);
	events.absorb(stored);
	events.prune(since);

	const digest = eventDigest(options.body, options.rawBody);
	const claim = await events.claim(digest, since);
	if (!claim) {
		// Put back what this process knows and the database lost to a concurrent save.
		if (events.countSince(since) > [...stored.values()].filter((at) => at > since).length) {
			staticData[STATIC_DATA_FIELD] = events.snapshot(since);
		}
		return undefined;
	}

	const listed = eventsListedAtSave(
		() => events.snapshot(since, [digest, now]),
		() => events.settle(digest, claim, true, now),
	);
	settleWhenAnswered(
		ctx.getResponseObject() as unknown as AnsweredResponse,
		events,
		digest,
		claim,
		now,
	);
	// Written now and again just before n8n saves: preparing the execution, n8n 2.x wraps the
	// static data anew (WorkflowRunner.establishContextForPersistence), which clears its
	// "changed" mark, so the save would skip a write made only now.
	const write = (): void => {
		staticData[STATIC_DATA_FIELD] = listed;
	};
	write();
	return write;
}
