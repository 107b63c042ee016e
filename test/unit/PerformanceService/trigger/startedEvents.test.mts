import { EventEmitter } from 'node:events';

import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import {
	eventDigest,
	NodeEvents,
	startOncePerEvent,
} from '../../../../nodes/PerformanceService/trigger/startedEvents.ts';
import { keptInProcess } from '../../../../nodes/shared/webhooks/n8nWebhookContract.ts';
import {
	forgetProcessMemory,
	readStoredEvents,
	STATIC_DATA_FIELD,
} from '../../../support/harness/startedEvents.mts';

const NOW = 1_763_900_000;
/** The most events the README promises to remember per trigger node. */
const MAX_STARTED_EVENTS = 5_000;
/** Digests are 12 characters, as `eventDigest` makes them. */
const [E1, E2, EXPIRED, O0] = ['e1', 'e2', 'expired', 'o0'].map((name) => name.padEnd(12, '-'));
const [A, B, C, D] = ['A', 'B', 'C', 'D'].map((digit) => digit.repeat(12));

describe('event digest', () => {
	it('is the id when there is one, whatever else the body holds', () => {
		const first = eventDigest({ id: 'evt_1', type: 'a' }, Buffer.from('{"id":"evt_1","type":"a"}'));
		const retry = eventDigest(
			{ id: 'evt_1', type: 'a' },
			Buffer.from('{ "id": "evt_1", "type": "a" }'),
		);
		expect(first).toBe(retry);
		expect(first).toMatch(/^[A-Za-z0-9_-]{12}$/);
		expect(eventDigest({ id: 'evt_2' }, Buffer.from('{}'))).not.toBe(first);
		expect(eventDigest({ id: 7 }, Buffer.from('{}'))).toBe(
			eventDigest({ id: '7' }, Buffer.from('[]')),
		);
	});

	it('is the exact body when the id is missing, empty or not a string or number', () => {
		for (const body of [{}, { id: '' }, { id: null }, { id: { nested: 1 } }]) {
			const raw = Buffer.from(JSON.stringify(body));
			expect(eventDigest(body, raw)).toBe(eventDigest(body, Buffer.from(raw)));
			expect(eventDigest(body, raw)).not.toBe(
				eventDigest(body, Buffer.concat([raw, Buffer.from(' ')])),
			);
		}
		// A body whose text is an id does not collide with that id.
		expect(eventDigest({}, Buffer.from('id:evt_1'))).not.toBe(
			eventDigest({ id: 'evt_1' }, Buffer.from('{}')),
		);
	});
});

describe("one process's memory of a trigger node", () => {
	let memory = new Map<string, NodeEvents>();
	const nodeEvents = (workflowId: string, nodeId: string): NodeEvents =>
		keptInProcess(memory, `${workflowId}/${nodeId}`, () => new NodeEvents());
	beforeEach(() => (memory = new Map()));

	it('reserves a new event, and calls it started only once released as started', async () => {
		const events = nodeEvents('wf', 'node');
		const reservation = await events.reserve(E1, NOW - 60);
		expect(reservation).toBeDefined();
		reservation!(true, NOW);
		expect(await events.reserve(E1, NOW - 60)).toBeUndefined();
		// Outside the window it is new again.
		expect(await events.reserve(E1, NOW)).toBeDefined();
	});

	it('forgets a reservation that was not answered with a 2xx', async () => {
		const events = nodeEvents('wf', 'node');
		const reservation = await events.reserve(E1, NOW - 60);
		reservation!(false, NOW);
		expect(await events.reserve(E1, NOW - 60)).toBeDefined();
	});

	it('makes a concurrent delivery of the same event wait for the first one', async () => {
		const events = nodeEvents('wf', 'node');
		const first = await events.reserve(E1, NOW - 60);
		const second = events.reserve(E1, NOW - 60);
		const third = events.reserve(E1, NOW - 60);
		first!(true, NOW);
		expect(await second).toBeUndefined();
		expect(await third).toBeUndefined();

		// When the first fails, the next one in line takes over, and the one after it waits again.
		const other = await events.reserve(E2, NOW - 60);
		const next = events.reserve(E2, NOW - 60);
		const last = events.reserve(E2, NOW - 60);
		other!(false, NOW);
		const taken = await next;
		expect(taken).toBeDefined();
		taken!(true, NOW);
		expect(await last).toBeUndefined();
	});

	it('keeps nodes apart and learns what another process stored', async () => {
		const other = nodeEvents('wf', 'a-elsewhere');
		await start(other, E1, NOW);
		nodeEvents('wf', 'a').loadStored(other.valueToStore(NOW - 60));
		expect(await nodeEvents('wf', 'a').reserve(E1, NOW - 60)).toBeUndefined();
		expect(await nodeEvents('wf', 'b').reserve(E1, NOW - 60)).toBeDefined();
		expect(await nodeEvents('other', 'a').reserve(E1, NOW - 60)).toBeDefined();
	});

	it('reads only what a batch added since it was last read, and keeps other batches as stored', async () => {
		const writer = nodeEvents('wf', 'writer');
		const reader = nodeEvents('wf', 'reader');
		await start(writer, E1, NOW);
		const first = writer.valueToStore(NOW - 60);
		reader.loadStored(first);
		await start(writer, E2, NOW + 1);
		const second = writer.valueToStore(NOW - 60);
		// The reader's own save carries the writer's string as it was stored, character for character.
		reader.loadStored(second);
		expect(reader.valueToStore(NOW - 60)[writer.batchId]).toBe(second[writer.batchId]);
		expect(await reader.reserve(E1, NOW - 60)).toBeUndefined();
		expect(await reader.reserve(E2, NOW - 60)).toBeUndefined();
		// An older string of the same batch adds nothing and does not replace the newer one.
		reader.loadStored(first);
		expect(reader.valueToStore(NOW - 60)[writer.batchId]).toBe(second[writer.batchId]);
		expect(reader.storedLacksKnown(second)).toBe(false);
		expect(reader.storedLacksKnown(first)).toBe(true);
	});

	it(`stores at most ${MAX_STARTED_EVENTS} events inside the window, the oldest of any batch forgotten first`, async () => {
		const older = nodeEvents('wf', 'older');
		const events = nodeEvents('wf', 'node');
		await start(older, EXPIRED, NOW - 100_000);
		await start(older, O0, NOW - 2000);
		events.loadStored(older.valueToStore(NOW - 200_000));
		for (let index = 0; index < MAX_STARTED_EVENTS; index++)
			await start(events, `e${index}`.padEnd(12, '-'), NOW - 1000 + Math.floor(index / 10));
		const stored = readStoredEvents(events.valueToStore(NOW - 10_000));
		expect(stored.size).toBe(MAX_STARTED_EVENTS);
		expect(stored.has(EXPIRED)).toBe(false);
		expect(stored.has(O0)).toBe(false);
		expect(stored.has('e0'.padEnd(12, '-'))).toBe(true);
		expect(await events.reserve(O0, NOW - 10_000)).toBeDefined();
		expect(await events.reserve(E1, NOW - 10_000)).toBeUndefined();
	});

	it("stores 12 characters per event, and each batch's first and newest start", async () => {
		const events = nodeEvents('wf', 'node');
		await start(events, A, NOW);
		await start(events, B, NOW + 3_590);
		// Recorded out of order (deliveries end in any order), within the hour: the same batch.
		await start(events, C, NOW - 10);
		const first = events.batchId;
		expect(events.valueToStore(NOW - 60)[first]).toBe(`3.${NOW - 10}.${NOW + 3_590}.${A}${B}${C}`);
		// Every event is kept by its batch's newest start: never shorter, at most an hour longer.
		expect([...readStoredEvents(events.valueToStore(NOW - 60))]).toEqual(
			[A, B, C].map((digest) => [digest, NOW + 3_590]),
		);
		// A start that would stretch the batch beyond an hour begins a new one.
		await start(events, D, NOW + 3_591);
		expect(events.batchId).not.toBe(first);
		expect(events.valueToStore(NOW - 60)[events.batchId]).toBe(
			`1.${NOW + 3_591}.${NOW + 3_591}.${D}`,
		);
		// Another process keeps the events until the batch's newest start leaves the window.
		const reader = nodeEvents('wf', 'reader');
		reader.loadStored(events.valueToStore(NOW - 60));
		expect(await reader.reserve(C, NOW + 3_589)).toBeUndefined();
		expect(Object.keys(events.valueToStore(NOW + 3_589))).toContain(first);
		expect(Object.keys(events.valueToStore(NOW + 3_590))).toEqual([events.batchId]);
		// What is not a batch's string is left out.
		const loaded = nodeEvents('wf', 'malformed');
		loaded.loadStored({
			short: '1.tooShort',
			array: ['a'],
			threeParts: `5.7.${'A'.repeat(12)}`,
			odd: '1.2.3.4',
			backwards: `1.9.8.${A}`,
			fiveParts: `1.2.3.${A}.${B}`,
			notSafe: `1.2.99999999999999999999.${A}`,
			fewerAddedThanHeld: `1.2.3.${A}${B}`,
			empty: '0.2.3.',
			good: `2.3.4.${B}${C}`,
		});
		expect(loaded.valueToStore(0)).toEqual({ good: `2.3.4.${B}${C}` });
	});

	it('ignores a stored value that is not an object of batches', async () => {
		const events = nodeEvents('wf', 'node');
		for (const stored of [null, undefined, 'text', 7, [`1.2.${NOW}.${A}`]]) {
			events.loadStored(stored);
			expect(events.storedLacksKnown(stored)).toBe(false);
		}
		expect(events.valueToStore(NOW - 60)).toEqual({});
		expect(await events.reserve(A, NOW - 60)).toBeDefined();
	});

	it('tells a digest only at its own 12 characters, not across two', async () => {
		const events = nodeEvents('wf', 'node');
		await start(events, 'abcdefghijkl', NOW);
		await start(events, 'mnopqrstuvwx', NOW);
		expect(await events.reserve('ghijklmnopqr', NOW - 60)).toBeDefined();
		expect(await events.reserve('mnopqrstuvwx', NOW - 60)).toBeUndefined();
	});

	it('says what a stored value lacks: a batch it does not hold, or holds with fewer events', async () => {
		const events = nodeEvents('wf', 'node');
		await start(events, A, NOW);
		const one = events.valueToStore(NOW - 60);
		expect(events.storedLacksKnown({})).toBe(true);
		expect(events.storedLacksKnown(undefined)).toBe(true);
		expect(events.storedLacksKnown(one)).toBe(false);
		// Another process's batch, stored alongside: only this process's batch decides.
		events.loadStored({ other: `1.${NOW}.${NOW}.${B}` });
		expect(events.storedLacksKnown({ ...one, other: `1.${NOW}.${NOW}.${B}` })).toBe(false);
		expect(events.storedLacksKnown({ other: `1.${NOW}.${NOW}.${B}` })).toBe(true);
		// Once the window has passed, nothing is known and nothing is lacking.
		events.valueToStore(NOW + 10);
		expect(events.storedLacksKnown({})).toBe(false);
	});

	it('keeps the longer copy of a batch when another process stored the same count with fewer events', () => {
		const events = nodeEvents('wf', 'node');
		events.loadStored({ x: `3.${NOW}.${NOW}.${A}${B}${C}` });
		events.loadStored({ x: `3.${NOW}.${NOW}.${C}` });
		expect(events.valueToStore(NOW - 60)).toEqual({ x: `3.${NOW}.${NOW}.${A}${B}${C}` });
	});

	it('counts a late recording as started, and does not add an event another process already started', async () => {
		const events = nodeEvents('wf', 'node');
		const first = await events.reserve(A, NOW - 60);
		// The grace passed: the reservation ended as not recorded, and a retry took it.
		first!(false, NOW);
		const second = await events.reserve(A, NOW - 60);
		// n8n records the first one late: the event is started all the same.
		first!(true, NOW);
		expect(readStoredEvents(events.valueToStore(NOW - 60)).has(A)).toBe(true);
		// The retry's reservation is its own: it ends when the retry is settled, once.
		const waiting = events.reserve(A, NOW - 60);
		second!(false, NOW);
		expect(await waiting).toBeUndefined();
		second!(true, NOW);
		expect(readStoredEvents(events.valueToStore(NOW - 60)).size).toBe(1);

		const elsewhere = nodeEvents('wf', 'other-node');
		const third = await elsewhere.reserve(B, NOW - 60);
		elsewhere.loadStored({ other: `1.${NOW}.${NOW}.${B}` });
		third!(true, NOW);
		expect(elsewhere.valueToStore(NOW - 60)).toEqual({ other: `1.${NOW}.${NOW}.${B}` });
	});

	it(`forgets only as many of the oldest batch's events as exceed ${MAX_STARTED_EVENTS}, wherever that batch is listed`, () => {
		const events = nodeEvents('wf', 'node');
		const digests = (prefix: string, count: number): string =>
			Array.from({ length: count }, (_, index) => `${prefix}${index}`.padEnd(12, '-')).join('');
		const stored = {
			newer: `498.${NOW}.${NOW}.${digests('n', 498)}`,
			...Object.fromEntries(
				Array.from({ length: 9 }, (_, batch) => [
					`mid${batch}`,
					`500.${NOW - 10}.${NOW - 10}.${digests(`m${batch}-`, 500)}`,
				]),
			),
			oldest: `3.${NOW - 20}.${NOW - 20}.${A}${B}${C}`,
		};
		events.loadStored(stored);
		const value = events.valueToStore(NOW - 60);
		expect(value.oldest).toBe(`3.${NOW - 20}.${NOW - 20}.${B}${C}`);
		expect(value.newer).toBe(stored.newer);
		expect(readStoredEvents(value).size).toBe(MAX_STARTED_EVENTS);
	});

	it('keeps every stored string small: a new batch every 500 events, read by another process as it grows', async () => {
		const writer = nodeEvents('wf', 'writer');
		const reader = nodeEvents('wf', 'reader');
		for (let index = 0; index < 1_200; index++) {
			await start(writer, `w${index}`.padEnd(12, '-'), NOW + index);
			if (index % 300 === 0) reader.loadStored(writer.valueToStore(NOW - 60));
		}
		const stored = writer.valueToStore(NOW - 60);
		expect(Object.values(stored).map((value) => (value as string).split('.')[0])).toEqual([
			'500',
			'500',
			'200',
		]);
		expect(
			Math.max(...Object.values(stored).map((value) => (value as string).length)),
		).toBeLessThan(500 * 12 + 40);
		reader.loadStored(stored);
		expect(readStoredEvents(reader.valueToStore(NOW - 60)).size).toBe(1_200);
		for (const index of [0, 499, 500, 1_199])
			expect(await reader.reserve(`w${index}`.padEnd(12, '-'), NOW - 60)).toBeUndefined();
	});
});

/** Reserves and releases an event as started, as a recorded delivery does. */
async function start(events: NodeEvents, digest: string, at: number): Promise<void> {
	const reservation = await events.reserve(digest, at - 1);
	reservation!(true, at);
}

const WINDOW_SECONDS = 3_600;
/** How long a reservation whose sender went away is kept (docs/design.md, A5). */
const GRACE_MS = 60_000;

/** One webhook call as n8n hands it to the trigger: its node's static data and the response. */
interface Call {
	ctx: IWebhookFunctions;
	res: EventEmitter & { statusCode: number; closed: boolean; destroyed: boolean };
	staticData: IDataObject;
}

function webhookCall(staticData: IDataObject = {}, workflowId = 'wf-1', nodeId = 'node-1'): Call {
	const res = Object.assign(new EventEmitter(), {
		statusCode: 200,
		closed: false,
		destroyed: false,
	});
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
	return await startOncePerEvent(call.ctx, body, raw, body, windowSeconds, Date.now());
}

/** What n8n does once it created the execution: read the answer (A2), then save (A3). */
function recordAndSave(call: Call, answer: IWebhookResponseData | undefined): IDataObject {
	if (!answer) throw new Error('the delivery was not accepted');
	expect(answer.webhookResponse).toEqual({ received: true });
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

/** The sender went away: Node sets `closed` and `destroyed` as it emits 'close'. */
function senderLeaves(call: Call): void {
	call.res.closed = true;
	call.res.destroyed = true;
	call.res.emit('close');
}

/** Under fake timers: `attempt` waits the whole grace, not a millisecond less, then is answered. */
async function answeredAfterGrace(attempt: Promise<unknown>): Promise<unknown> {
	await vi.advanceTimersByTimeAsync(GRACE_MS - 1);
	expect(await isPending(attempt)).toBe(true);
	await vi.advanceTimersByTimeAsync(1);
	expect(await isPending(attempt)).toBe(false);
	return await attempt;
}

beforeEach(() => forgetProcessMemory());
afterEach(() => vi.useRealTimers());

describe('n8n webhook contract: one start per event', () => {
	it('keeps the events of each workflow apart, also where trigger nodes share an id', async () => {
		const first = webhookCall({}, 'wf-a', 'same-node');
		recordAndSave(first, await reserve(first, 'evt_1'));
		expect(await reserve(webhookCall({}, 'wf-a', 'same-node'), 'evt_1')).toBeUndefined();
		const other = webhookCall({}, 'wf-b', 'same-node');
		expect(await reserve(other, 'evt_1')).toBeDefined();
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
		expect(await reserve(call, 'evt_1')).toBeDefined();
		const saved = JSON.parse(JSON.stringify(call.staticData)) as IDataObject;
		expect(storedDigests(saved)).toHaveLength(1);
		forgetProcessMemory();
		expect(await reserve(webhookCall(saved), 'evt_1')).toBeUndefined();
	});

	it.each([199, 300, 404, 500])(
		'forgets a delivery n8n answered %i (no execution): a retry may start it',
		async (status) => {
			const call = webhookCall();
			expect(await reserve(call, 'evt_1')).toBeDefined();
			const retry = reserve(webhookCall(), 'evt_1');
			expect(await isPending(retry)).toBe(true);
			call.res.statusCode = status;
			call.res.emit('finish');
			call.res.emit('close');
			expect(await retry).toBeDefined();
		},
	);

	it.each([200, 299])(
		'counts the event as started on a %i answer (A1), also if n8n never read the answer',
		async (status) => {
			vi.useFakeTimers({ toFake: ['setTimeout'] });
			const call = webhookCall();
			const answer = await reserve(call, 'evt_1');
			const retry = reserve(webhookCall(), 'evt_1');
			call.res.statusCode = status;
			call.res.emit('finish');
			call.res.emit('close');
			expect(await isPending(retry)).toBe(false);
			expect(await retry).toBeUndefined();
			await vi.advanceTimersByTimeAsync(GRACE_MS);
			// n8n's read after the answer changes nothing: the next retry is a duplicate too.
			recordAndSave(call, answer);
			expect(await reserve(webhookCall(), 'evt_1')).toBeUndefined();
		},
	);

	it('answers the next attempt within 60 s when the sender left before webhook() returned and n8n could not record it', async () => {
		vi.useFakeTimers({ toFake: ['setTimeout'] });
		const call = webhookCall();
		// The sender is gone before the trigger runs: 'close' has fired already.
		senderLeaves(call);
		expect(await reserve(call, 'evt_1')).toBeDefined();
		// n8n cannot create the execution; its 500 goes to a closed socket: no 'finish'.
		const retry = reserve(webhookCall(), 'evt_1');
		expect(await answeredAfterGrace(retry)).toBeDefined();
	});

	it('answers the next attempt within 60 s when the sender left while its delivery waited for another one', async () => {
		vi.useFakeTimers({ toFake: ['setTimeout'] });
		const first = webhookCall();
		expect(await reserve(first, 'evt_1')).toBeDefined();
		const second = webhookCall();
		const waiting = reserve(second, 'evt_1');
		senderLeaves(second);
		// n8n could not record the first one and answered 500: the second one takes over, its sender gone.
		first.res.statusCode = 500;
		first.res.emit('finish');
		expect(await waiting).toBeDefined();
		const third = reserve(webhookCall(), 'evt_1');
		expect(await answeredAfterGrace(third)).toBeDefined();
	});

	it('remembers an execution n8n records after the 60 s grace: the next retry is a duplicate, also after a restart', async () => {
		vi.useFakeTimers({ toFake: ['setTimeout'] });
		const call = webhookCall();
		const answer = await reserve(call, 'evt_1');
		senderLeaves(call);
		await vi.advanceTimersByTimeAsync(GRACE_MS);
		const saved = recordAndSave(call, answer);
		expect(storedDigests(saved)).toHaveLength(1);
		expect(await reserve(webhookCall(), 'evt_1')).toBeUndefined();
		forgetProcessMemory();
		expect(await reserve(webhookCall(saved), 'evt_1')).toBeUndefined();
	});

	it('keeps the reservation of a sender that went away for 60 s, then lets a retry start', async () => {
		vi.useFakeTimers({ toFake: ['setTimeout'] });
		const call = webhookCall();
		expect(await reserve(call, 'evt_1')).toBeDefined();
		const retry = reserve(webhookCall(), 'evt_1');
		call.res.emit('close');
		expect(await answeredAfterGrace(retry)).toBeDefined();
	});

	it('with a window of 0 starts every delivery and deletes the stored events when n8n reads the answer', async () => {
		const call = webhookCall();
		const saved = recordAndSave(call, await reserve(call, 'evt_1'));
		expect(storedDigests(saved)).toHaveLength(1);

		const off = webhookCall(structuredClone(saved));
		const answer = await reserve(off, 'evt_1', 0);
		// A4: n8n saves only what changes once it has created the execution.
		expect(off.staticData[STATIC_DATA_FIELD]).toBeDefined();
		expect(recordAndSave(off, answer)).toEqual({});
		expect(recordAndSave(off, await reserve(off, 'evt_1', 0))).toEqual({});
	});
});
