/**
 * Everything in the trigger that depends on how n8n orders its work for a webhook call. The
 * trigger promises that a 2xx means n8n recorded the delivery's execution, and that one event
 * starts one workflow across retries, restarts, crashes and processes. Both rest on these
 * assumptions, read from n8n 2.41.1 (packages/cli/src): `WebhookHelpers.executeWebhook`
 * (webhooks/webhook-helpers.ts) runs the workflow, then reads the answer with
 * `extractWebhookOnReceivedResponse` and hands it to the callback of `LiveWebhooks.executeWebhook`
 * (webhooks/live-webhooks.ts), which saves the static data with
 * `WorkflowStaticDataService.saveStaticData` before the answer is sent; `WorkflowRunner.run`
 * (workflow-runner.ts) creates the execution through `ActiveExecutions.add` →
 * `ExecutionPersistence.create`, after `establishContextForPersistence`; n8n-workflow's
 * `ObservableObject` marks changed static data.
 *
 * A1  With `responseMode: 'onReceived'`, n8n creates the execution (a row in its database)
 *     before it sends the answer, and answers with the node's `webhookResponse`.
 *     n8n 1.x answers first and records after, for every trigger: there a 2xx does not mean
 *     recorded, and a crash right after it can lose the event (README, "Compatibility").
 * A2  n8n reads `webhookResponse` of what `webhook()` returned after creating the execution and
 *     before saving the static data.
 * A3  n8n saves the node's static data changed in `webhook()` with `JSON.stringify` (so a
 *     `toJSON` value is called then) before it sends the answer, and every process reads the
 *     static data from the database when it loads the workflow for a call.
 * A4  Preparing the execution, n8n wraps the static data anew, which clears its "changed" mark:
 *     a write made only during `webhook()` would not be saved.
 * A5  The response emits 'finish' once the answer is sent. 'close' without 'finish' means the
 *     sender went away (e.g. it timed out): n8n goes on, and may still create the execution.
 *
 * `test/contract/` checks A1 and A3 in the newest n8n 1.x, the pinned 2.x and the newest 2.x, and
 * names the assumption that broke; a weekly CI workflow runs it against the newest n8n.
 */
import {
	sleep,
	type IDataObject,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { eventDigest, processMemory, STATIC_DATA_FIELD } from './startedEvents';

/** The webhook description that selects A1: answered by n8n once the execution exists. */
export const RECORDED_BEFORE_ANSWER = {
	responseMode: 'onReceived',
	// Left out, n8n would answer with the text "firstEntryJson" instead of `webhookResponse`.
	responseData: '',
} as const;

/**
 * How long a reservation whose sender went away waits for n8n to read the answer (A2), that is to
 * have created the execution, before a retry may start the event; n8n takes well under a second.
 */
const RECORDING_GRACE_MS = 60_000;

/** Starts the workflow with `json`, answered by n8n once the execution is recorded. */
export type AcceptDelivery = (json: IDataObject) => IWebhookResponseData;

/** A2: `onRecorded` runs when n8n reads the answer, once the execution exists, before it saves. */
function answerWhenRecorded(json: IDataObject, onRecorded?: () => void): IWebhookResponseData {
	const result: IWebhookResponseData = { workflowData: [[{ json }]] };
	Object.defineProperty(result, 'webhookResponse', {
		enumerable: true,
		get: () => {
			onRecorded?.();
			return { received: true };
		},
	});
	return result;
}

/**
 * Whether a verified delivery of a selected event may start the workflow: `undefined` when this
 * trigger node already started a workflow for the same event within `windowSeconds` (in this
 * process, in another one, or before a restart); otherwise how to accept it. A window of 0 turns
 * the check off.
 */
export async function reserveEventStart(
	ctx: IWebhookFunctions,
	body: IDataObject,
	rawBody: Buffer,
	windowSeconds: number,
	receivedAtMs: number,
): Promise<AcceptDelivery | undefined> {
	const staticData = ctx.getWorkflowStaticData('node');
	if (windowSeconds <= 0) {
		// A4: deleted when n8n reads the answer, so that the save holds it.
		const forget = () => {
			if (staticData[STATIC_DATA_FIELD] !== undefined) delete staticData[STATIC_DATA_FIELD];
		};
		return (json) => answerWhenRecorded(json, forget);
	}
	// Test runs from the editor always start: a delivery sent to the Test URL is one the user asked for.
	if (ctx.getMode() === 'manual') return answerWhenRecorded;

	const now = Math.floor(receivedAtMs / 1000);
	const since = now - windowSeconds;
	const events = processMemory.of(ctx.getWorkflow().id ?? '', ctx.getNode().id);
	// A3: what every process saved, as this call loaded it.
	const stored = staticData[STATIC_DATA_FIELD];
	events.loadStored(stored);

	const digest = eventDigest(body, rawBody);
	const reservation = await events.reserve(digest, since);
	// A3: listed when n8n saves, so the save holds every event this process knows by then, also
	// those whose own saves came a moment earlier.
	const listedAtSave = (onSave?: () => void) =>
		({
			toJSON: (): IDataObject => {
				onSave?.();
				return events.valueToStore(since);
			},
		}) as unknown as IDataObject;

	if (!reservation) {
		// Puts back what this process knows and a concurrent save dropped from the database.
		if (events.storedLacksKnown(stored)) staticData[STATIC_DATA_FIELD] = listedAtSave();
		return undefined;
	}

	const settle = (started: boolean) => () => events.release(digest, reservation, started, now);
	// A5: a non-2xx answer releases the reservation as not started (n8n created no execution); a
	// sender that went away leaves it to A2 for RECORDING_GRACE_MS.
	const res = ctx.getResponseObject();
	let finished = false;
	res.once?.('finish', () => {
		finished = true;
		if (res.statusCode < 200 || res.statusCode >= 300) settle(false)();
	});
	res.once?.('close', () => {
		if (!finished) void sleep(RECORDING_GRACE_MS).then(settle(false));
	});
	const listed = listedAtSave(settle(true));
	staticData[STATIC_DATA_FIELD] = listed;
	// A2: when n8n reads the answer the execution exists: the event counts as started from then on.
	// A4: the events are written again then, just before n8n saves.
	return (json) =>
		answerWhenRecorded(json, () => {
			settle(true)();
			staticData[STATIC_DATA_FIELD] = listed;
		});
}
