import { sleep, type IDataObject, type IWebhookFunctions } from 'n8n-workflow';

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
 * n8n 2.x clears the static data's "changed" mark while it prepares the execution (it wraps the
 * same object again), so its save before the answer would skip a change made by a call that starts
 * a workflow. Writing the events again a moment later, while n8n creates the execution, keeps the
 * change: the first write runs after n8n's synchronous preparation, the later ones cover a slow one.
 */
const WRITE_AGAIN_AFTER_MS = [0, 25, 250, 1000, 4000];

interface Answered {
	done: boolean;
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

/**
 * Writes the events into the static data now, and the same value again after each delay until
 * the delivery is answered (n8n has saved by then). Kept apart from the request, so that the
 * waiting timers hold no reference to it.
 */
function keepWritten(staticData: IDataObject, events: IDataObject, answered: Answered): void {
	staticData[STATIC_DATA_FIELD] = events;
	for (const delay of WRITE_AGAIN_AFTER_MS) {
		void sleep(delay).then(() => {
			if (!answered.done) staticData[STATIC_DATA_FIELD] = events;
		});
	}
}

/** Ends the claim when n8n has answered: started when the answer is a 2xx (n8n sends it once the execution exists). */
function settleWhenAnswered(
	res: AnsweredResponse,
	events: NodeEvents,
	digest: string,
	claim: Claim,
	at: number,
	answered: Answered,
): void {
	if (typeof res.once !== 'function') {
		answered.done = true;
		events.settle(digest, claim, true, at);
		return;
	}
	res.once('finish', () => {
		answered.done = true;
		events.settle(digest, claim, res.statusCode >= 200 && res.statusCode < 300, at);
	});
	res.once('close', () => {
		answered.done = true;
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

/**
 * Whether a verified delivery of a selected event may start the workflow: `false` when this
 * trigger node already started a workflow for the same event within the window (in this process,
 * in another one, or before a restart). When it returns `true`, the event is written into the
 * static data n8n saves before it answers, and remembered here once n8n's answer is a 2xx.
 */
export async function claimEventStart(
	ctx: IWebhookFunctions,
	options: StartOnceOptions,
): Promise<boolean> {
	const staticData = ctx.getWorkflowStaticData('node');
	if (options.windowSeconds <= 0) {
		if (staticData[STATIC_DATA_FIELD] !== undefined) delete staticData[STATIC_DATA_FIELD];
		return true;
	}
	// Test runs from the editor always start: a delivery sent to the Test URL is one the user asked for.
	if (ctx.getMode() === 'manual') return true;

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
		return false;
	}

	const answered: Answered = { done: false };
	const listed = eventsListedAtSave(
		() => events.snapshot(since, [digest, now]),
		() => events.settle(digest, claim, true, now),
	);
	keepWritten(staticData, listed, answered);
	settleWhenAnswered(
		ctx.getResponseObject() as unknown as AnsweredResponse,
		events,
		digest,
		claim,
		now,
		answered,
	);
	return true;
}
