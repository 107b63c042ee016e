import { EventEmitter } from 'node:events';

import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import {
	reserveEventStart,
	type AcceptDelivery,
} from '../../../../nodes/PerformanceService/trigger/n8nWebhookContract.ts';
import {
	forgetProcessMemory,
	readStoredEvents,
	STATIC_DATA_FIELD,
} from '../../../support/harness/startedEvents.mts';

const WINDOW_SECONDS = 3_600;
/** How long a reservation whose sender went away is kept (docs/design.md, A5). */
const GRACE_MS = 60_000;

/** One webhook call as n8n hands it to the trigger: its node's static data and the response. */
interface Call {
	ctx: IWebhookFunctions;
	res: EventEmitter & { statusCode: number };
	staticData: IDataObject;
}

function webhookCall(staticData: IDataObject = {}, workflowId = 'wf-1', nodeId = 'node-1'): Call {
	const res = Object.assign(new EventEmitter(), { statusCode: 200 });
	const ctx = {
		getWorkflowStaticData: () => staticData,
		getMode: () => 'webhook',
		getWorkflow: () => ({ id: workflowId }),
		getNode: () => ({ id: nodeId }),
		getResponseObject: () => res,
	} as unknown as IWebhookFunctions;
	return { ctx, res, staticData };
}

async function reserve(call: Call, id: string, windowSeconds = WINDOW_SECONDS) {
	const body = { id, type: 'alert.opened' };
	const raw = Buffer.from(JSON.stringify(body));
	return await reserveEventStart(call.ctx, body, raw, windowSeconds, Date.now());
}

/** What n8n does once it created the execution: read the answer (A2), then save (A3). */
function recordAndSave(call: Call, accept: AcceptDelivery | undefined): IDataObject {
	if (!accept) throw new Error('the delivery was not accepted');
	expect(accept({ id: 'x' }).webhookResponse).toEqual({ received: true });
	return JSON.parse(JSON.stringify(call.staticData)) as IDataObject;
}

/** The digests a saved copy of the static data holds. */
const storedDigests = (saved: IDataObject): string[] => [
	...readStoredEvents(saved[STATIC_DATA_FIELD]).keys(),
];

/** Whether a promise is still pending once everything already due has run. */
async function isPending(promise: Promise<unknown>): Promise<boolean> {
	let done = false;
	void promise.then(() => (done = true));
	for (let turn = 0; turn < 20; turn++) await Promise.resolve();
	return !done;
}

beforeEach(() => forgetProcessMemory());
afterEach(() => vi.useRealTimers());

describe('n8n webhook contract: one start per event', () => {
	it('keeps the events of each workflow apart, also where trigger nodes share an id', async () => {
		const first = webhookCall({}, 'wf-a', 'same-node');
		recordAndSave(first, await reserve(first, 'evt_1'));
		expect(await reserve(webhookCall({}, 'wf-a', 'same-node'), 'evt_1')).toBeUndefined();
		const other = webhookCall({}, 'wf-b', 'same-node');
		expect(await reserve(other, 'evt_1')).toBeTypeOf('function');
	});

	it('puts back, on a duplicate, the events a concurrent save of an older copy dropped', async () => {
		// Two calls load the same saved static data at once; the second one saves last.
		const loaded: IDataObject = {};
		const first = webhookCall(structuredClone(loaded));
		const second = webhookCall(structuredClone(loaded));
		const savedByFirst = recordAndSave(first, await reserve(first, 'evt_1'));
		expect(storedDigests(savedByFirst)).toHaveLength(1);

		expect(await reserve(second, 'evt_1')).toBeUndefined();
		const savedBySecond = JSON.parse(JSON.stringify(second.staticData)) as IDataObject;
		expect(storedDigests(savedBySecond)).toEqual(storedDigests(savedByFirst));

		// A copy that already holds every known event is left as loaded: nothing to save.
		const upToDate = webhookCall(structuredClone(savedByFirst));
		const stored = upToDate.staticData[STATIC_DATA_FIELD];
		expect(await reserve(upToDate, 'evt_1')).toBeUndefined();
		expect(upToDate.staticData[STATIC_DATA_FIELD]).toBe(stored);
	});

	it('lists the event as started in a save that comes before n8n reads the answer', async () => {
		const call = webhookCall();
		expect(await reserve(call, 'evt_1')).toBeTypeOf('function');
		const saved = JSON.parse(JSON.stringify(call.staticData)) as IDataObject;
		expect(storedDigests(saved)).toHaveLength(1);
		forgetProcessMemory();
		expect(await reserve(webhookCall(saved), 'evt_1')).toBeUndefined();
	});

	it.each([199, 300, 404, 500])(
		'forgets a delivery n8n answered %i (no execution): a retry may start it',
		async (status) => {
			const call = webhookCall();
			expect(await reserve(call, 'evt_1')).toBeTypeOf('function');
			const retry = reserve(webhookCall(), 'evt_1');
			expect(await isPending(retry)).toBe(true);
			call.res.statusCode = status;
			call.res.emit('finish');
			call.res.emit('close');
			expect(await retry).toBeTypeOf('function');
		},
	);

	it.each([200, 299])(
		'keeps the reservation after a %i answer, also once the connection closes',
		async (status) => {
			vi.useFakeTimers({ toFake: ['setTimeout'] });
			const call = webhookCall();
			const accept = await reserve(call, 'evt_1');
			const retry = reserve(webhookCall(), 'evt_1');
			call.res.statusCode = status;
			call.res.emit('finish');
			call.res.emit('close');
			await vi.advanceTimersByTimeAsync(GRACE_MS);
			expect(await isPending(retry)).toBe(true);
			// n8n reads the answer: the event started, the waiting retry is a duplicate.
			recordAndSave(call, accept);
			expect(await retry).toBeUndefined();
		},
	);

	it('keeps the reservation of a sender that went away for 60 s, then lets a retry start', async () => {
		vi.useFakeTimers({ toFake: ['setTimeout'] });
		const call = webhookCall();
		expect(await reserve(call, 'evt_1')).toBeTypeOf('function');
		const retry = reserve(webhookCall(), 'evt_1');
		call.res.emit('close');
		await vi.advanceTimersByTimeAsync(GRACE_MS - 1);
		expect(await isPending(retry)).toBe(true);
		await vi.advanceTimersByTimeAsync(1);
		expect(await retry).toBeTypeOf('function');
	});

	it('with a window of 0 starts every delivery and deletes the stored events when n8n reads the answer', async () => {
		const call = webhookCall();
		const saved = recordAndSave(call, await reserve(call, 'evt_1'));
		expect(storedDigests(saved)).toHaveLength(1);

		const off = webhookCall(structuredClone(saved));
		const accept = await reserve(off, 'evt_1', 0);
		// A4: n8n saves only what changes once it has created the execution.
		expect(off.staticData[STATIC_DATA_FIELD]).toBeDefined();
		expect(recordAndSave(off, accept)).toEqual({});
		expect(recordAndSave(off, await reserve(off, 'evt_1', 0))).toEqual({});
	});
});
