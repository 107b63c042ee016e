/**
 * Everything in the webhook triggers that depends on how n8n orders its work for a webhook call.
 * Both triggers promise that a 2xx means n8n recorded the execution of what they emit, and that
 * nothing starts twice across retries, restarts and processes. Both rest on these assumptions,
 * read from n8n 2.41.1 (packages/cli/src): `WebhookHelpers.executeWebhook`
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
 *     Node sets `closed` and `destroyed` on the response as it emits 'close'.
 * A6  `webhook()` returning no `workflowData` and `noWebhookResponse: true` starts no execution
 *     and leaves the answer to the node (it wrote it on the response object).
 * A7  n8n's body parser keeps the request's bytes as `rawBody` (or offers `readRawBody()`).
 * A8  `parseRequestBody` (webhook-helpers.ts) parses the body before `webhook()` and answers 422
 *     to JSON it cannot parse, except for a start node of version 1 whose `options.binaryData` is
 *     set: that node gets every body unparsed (n8n evaluates one expression per call to tell).
 *
 * `test/contract/` checks A1, A3, A6 and A8 in the newest n8n 1.x, the pinned 2.x and the newest
 * 2.x, and names the assumption that broke; a weekly CI workflow runs it against the newest n8n.
 */
import {
	sleep,
	type IDataObject,
	type INodeExecutionData,
	type INodeProperties,
	type IWebhookDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

/** The triggers' webhook: POST, answered by n8n once the execution exists (A1). */
export const RECORDED_BEFORE_ANSWER: IWebhookDescription = {
	name: 'default',
	httpMethod: 'POST',
	path: 'webhook',
	responseMode: 'onReceived',
	// Left out, n8n would answer with the text "firstEntryJson" instead of `webhookResponse`.
	responseData: '',
};

/**
 * How long an answer whose sender went away waits for n8n to read it (A2), that is to have
 * created the execution, before it counts as not recorded; n8n takes well under a second.
 */
export const RECORDING_GRACE_MS = 60_000;

/** A8: with this hidden parameter, a version-1 trigger gets every body, also one that is not JSON. */
export const BODY_NOT_PARSED: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'hidden',
	default: { binaryData: true },
};

/** Entries one process keeps in each of its memories at most; the least recently used goes first. */
const MAX_KEPT_IN_PROCESS = 1_000;

/** `key`'s entry of a memory of this process (made by `create` when missing), now the most recently used. */
export function keptInProcess<T>(memory: Map<string, T>, key: string, create: () => T): T {
	const value = memory.get(key) ?? create();
	memory.delete(key);
	memory.set(key, value);
	if (memory.size > MAX_KEPT_IN_PROCESS) memory.delete(memory.keys().next().value!);
	return value;
}

/** A3: a static data value that `value` computes when n8n saves it, so that the save holds the newest. */
export const computedAtSave = (value: () => unknown): IDataObject =>
	({ toJSON: value }) as unknown as IDataObject;

/**
 * Starts the workflow with `items`. `settle(true)` runs when n8n reads the answer (A2), once the
 * execution exists, before it saves the static data, or else when a 2xx is sent (A1). A5:
 * `settle(false)` runs when the answer is not a 2xx, or RECORDING_GRACE_MS after the sender went
 * away (at once if it was gone before this call), unless `settle(true)` ran first. So every call
 * settles, `settle(true)` at most once and `settle(false)` at most once; `settle(true)` after
 * `settle(false)` means n8n recorded the execution late, after the grace.
 */
export function answerWhenRecorded(
	ctx: IWebhookFunctions,
	items: INodeExecutionData[],
	settle?: (recorded: boolean) => void,
): IWebhookResponseData {
	const res = settle && ctx.getResponseObject();
	let recorded = false;
	let givenUp = false;
	const settleOnce = (isRecorded: boolean): void => {
		if (recorded || (givenUp && !isRecorded)) return;
		if (isRecorded) recorded = true;
		else givenUp = true;
		settle?.(isRecorded);
	};
	const result: IWebhookResponseData = { workflowData: [items] };
	Object.defineProperty(result, 'webhookResponse', {
		enumerable: true,
		get: () => {
			settleOnce(true);
			return { received: true };
		},
	});
	if (!res) return result;
	let finished = false;
	const senderGone = () => {
		if (!finished) void sleep(RECORDING_GRACE_MS).then(() => settleOnce(false));
	};
	res.once?.('finish', () => {
		finished = true;
		settleOnce(res.statusCode >= 200 && res.statusCode < 300);
	});
	// A sender that left before now has fired 'close' already (after a client abort Node sets
	// `destroyed` and `closed` as it emits it): the grace starts at once.
	if (res.closed === true || res.destroyed === true) senderGone();
	else res.once?.('close', senderGone);
	return result;
}

/** A6: answers the request now with `status` and a JSON body; no workflow starts. */
export function reply(
	ctx: IWebhookFunctions,
	status: number,
	body: IDataObject,
): IWebhookResponseData {
	const res = ctx.getResponseObject();
	if (!res.headersSent) {
		res.statusCode = status;
		res.setHeader('Content-Type', 'application/json; charset=utf-8');
		res.setHeader('Cache-Control', 'no-store');
		res.end(JSON.stringify(body));
	}
	return { noWebhookResponse: true };
}

/** A7: the exact request bytes (n8n reads them before the node runs, `readRawBody` if it did not). */
export async function readRawBody(ctx: IWebhookFunctions): Promise<Buffer | undefined> {
	const request = ctx.getRequestObject();
	if (!Buffer.isBuffer(request.rawBody) && typeof request.readRawBody === 'function')
		await request.readRawBody();
	return Buffer.isBuffer(request.rawBody) ? request.rawBody : undefined;
}
