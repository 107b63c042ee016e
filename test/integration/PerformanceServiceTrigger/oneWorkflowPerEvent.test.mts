import { request, type ClientRequest } from 'node:http';
import { setTimeout as realSleep } from 'node:timers/promises';

import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import {
	epochSeconds,
	eventBody,
	postDelivery,
	sign,
	type DeliveryAnswer,
} from '../../support/harness/deliveries.mts';
import { packageNode } from '../../support/harness/runWorkflow.mts';
import {
	startWebhookListener,
	type StaticDataStore,
	type WebhookListener,
	type WebhookSetup,
} from '../../support/harness/runWebhook.mts';
import {
	forgetProcessMemory,
	readStoredEvents,
	STATIC_DATA_FIELD,
} from '../../support/harness/startedEvents.mts';

const SECRET = 'whsec_dedupe_7c2e91b04f3a';
const TRIGGER = 'Performance Service Trigger';
const STATIC_KEY = `node:${TRIGGER}`;
const DUPLICATE = { status: 200, body: { received: true, duplicate: true } };
const STARTED = { status: 200, body: { received: true } };
const HOUR_MS = 3_600_000;
/** The most events the README promises to remember per trigger node. */
const MAX_STARTED_EVENTS = 5_000;

const listeners: WebhookListener[] = [];

afterEach(() => {
	vi.useRealTimers();
});

afterAll(async () => {
	await Promise.all(listeners.map((listener) => listener.close()));
});

function setupFor(parameters: INodeParameters = {}, staticData?: StaticDataStore): WebhookSetup {
	const trigger = packageNode('performanceServiceTrigger', parameters, {
		name: TRIGGER,
		credentials: ['performanceServiceApi'],
	});
	return {
		workflow: { nodes: [trigger], connections: {} },
		credentials: {
			performanceServiceApi: {
				baseUrl: 'http://127.0.0.1:9/v1',
				apiToken: 'tok_unused',
				webhookSigningSecret: SECRET,
			},
		},
		staticData,
	};
}

async function listen(setup: WebhookSetup): Promise<WebhookListener> {
	const listener = await startWebhookListener(setup);
	listeners.push(listener);
	return listener;
}

/** Each attempt signed afresh, as the service does on a retry. */
async function deliver(listener: WebhookListener, body: string): Promise<DeliveryAnswer> {
	return await postDelivery(listener.url, { body, secret: SECRET });
}

/** One attempt signed afresh, sent through node:http so that the test can drop the connection. */
function sendSigned(listener: WebhookListener, body: string): ClientRequest {
	const timestamp = epochSeconds();
	const sent = request(listener.url, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'x-service-webhook-timestamp': timestamp,
			'x-service-webhook-signature': sign(SECRET, timestamp, body),
		},
	});
	sent.on('error', () => undefined);
	sent.end(body);
	return sent;
}

/**
 * Under fake timers: moves fake time on 1 ms at a time, letting real I/O run between, until
 * `done`; fails once `fakeMs` of fake time have passed without it.
 */
async function advanceUntil(done: () => boolean, fakeMs = 1_000): Promise<void> {
	for (let advanced = 0; !done(); advanced += 1) {
		if (advanced >= fakeMs) throw new Error(`Still waiting after ${fakeMs} ms of fake time`);
		await vi.advanceTimersByTimeAsync(1);
		await realSleep(2);
	}
}

function startedIds(listener: WebhookListener): unknown[] {
	return listener.runs().flatMap((run) => run.output(TRIGGER).map((item) => item.json.id));
}

/** The events in the saved static data, digest → seconds. */
function storedEvents(store: StaticDataStore): IDataObject {
	const saved = (store.saved[STATIC_KEY] as IDataObject | undefined)?.[STATIC_DATA_FIELD];
	return Object.fromEntries(readStoredEvents(saved));
}

describe('Performance Service Trigger: one workflow per event', () => {
	beforeEach(() => forgetProcessMemory());

	it('starts once for an event the service re-signs and sends 5 times, and answers the 4 others as duplicates', async () => {
		const listener = await listen(setupFor());
		const body = eventBody('audit.regression', { siteId: 'site_1' });
		const answers: DeliveryAnswer[] = [];
		for (let attempt = 1; attempt <= 5; attempt++) answers.push(await deliver(listener, body));

		expect(answers).toEqual([STARTED, DUPLICATE, DUPLICATE, DUPLICATE, DUPLICATE]);
		const calls = await listener.waitForCalls(5);
		expect(calls.map((call) => [call.answeredByNode, call.executionRecordedBeforeAnswer])).toEqual([
			[false, true],
			[true, false],
			[true, false],
			[true, false],
			[true, false],
		]);
		expect(startedIds(listener)).toEqual([JSON.parse(body).id]);
	});

	it('recognises an exact replay after a restart from the static data alone', async () => {
		const setup = setupFor();
		const before = await listen(setup);
		const body = eventBody('alert.opened');
		const timestamp = epochSeconds();
		const signature = sign(SECRET, timestamp, body);
		expect(await postDelivery(before.url, { body, timestamp, signature })).toEqual(STARTED);
		await before.waitForCalls(1);

		forgetProcessMemory(); // the restart: process memory gone, the database kept
		const after = await listen({ ...setup, staticData: before.staticData });
		expect(await postDelivery(after.url, { body, timestamp, signature })).toEqual(DUPLICATE);
		expect(await deliver(after, body)).toEqual(DUPLICATE);
		await after.waitForCalls(2);
		expect(after.runs()).toEqual([]);

		// Without the saved static data the same restart would start it again: the static data is what carries it.
		forgetProcessMemory();
		const wiped = await listen({ ...setup, staticData: { saved: {} } });
		expect(await deliver(wiped, body)).toEqual(STARTED);
	});

	it('starts one workflow for identical deliveries arriving at the same moment', async () => {
		// n8n holds the first delivery's answer until its execution is created: hold it until all 12 are in.
		let allReceived: () => void = () => undefined;
		const gate = new Promise<void>((resolve) => (allReceived = resolve));
		const listener = await listen({ ...setupFor(), recordExecution: () => gate });
		const body = eventBody('audit.completed');
		const timestamp = epochSeconds();
		const signature = sign(SECRET, timestamp, body);
		const answering = Promise.all([
			...Array.from({ length: 6 }, () =>
				postDelivery(listener.url, { body, timestamp, signature }),
			),
			...Array.from({ length: 6 }, () => deliver(listener, body)),
		]);
		await vi.waitFor(() => expect(listener.received()).toBe(12));
		await new Promise((resolve) => setTimeout(resolve, 100));
		allReceived();
		const answers = await answering;

		expect(answers.filter((answer) => answer.body.duplicate === true)).toHaveLength(11);
		expect(answers.filter((answer) => answer.status === 200)).toHaveLength(12);
		await listener.waitForCalls(12);
		expect(startedIds(listener)).toEqual([JSON.parse(body).id]);
	});

	it('forgets a delivery n8n could not record, so that the retry starts it', async () => {
		let failures = 1;
		const recordExecution = async (): Promise<void> => {
			if (failures-- > 0) throw new Error('database unavailable');
		};
		const listener = await listen({ ...setupFor(), recordExecution });
		const body = eventBody('alert.opened');
		expect((await deliver(listener, body)).status).toBe(500);
		expect(listener.staticData.saved).toEqual({});
		expect(await deliver(listener, body)).toEqual(STARTED);
		expect(await deliver(listener, body)).toEqual(DUPLICATE);
		await listener.waitForCalls(3);
		expect(startedIds(listener)).toEqual([JSON.parse(body).id]);
	});

	it('counts a delivery whose sender gave up waiting once n8n records it: the retry is a duplicate', async () => {
		// The service timed out and closed the connection while n8n was still creating the
		// execution; n8n goes on and records it, so the retry must not start a second one.
		let releaseRecording: () => void = () => undefined;
		const recording = new Promise<void>((resolve) => (releaseRecording = resolve));
		let calls = 0;
		const recordExecution = async (): Promise<void> => {
			if (calls++ === 0) await recording;
		};
		const listener = await listen({ ...setupFor(), recordExecution });
		const body = eventBody('audit.completed');
		const abandoned = sendSigned(listener, body);
		await vi.waitFor(() => expect(calls).toBe(1), { timeout: 20_000 });
		abandoned.destroy();
		// The connection is gone before n8n has recorded the execution.
		await new Promise((resolve) => abandoned.once('close', resolve));
		await new Promise((resolve) => setTimeout(resolve, 200));
		const retry = deliver(listener, body);
		releaseRecording();
		expect(await retry).toEqual(DUPLICATE);
		await listener.waitForCalls(2);
		expect(startedIds(listener)).toEqual([JSON.parse(body).id]);
	});

	it('answers the next attempt within the 60 s grace when a sender left before webhook() returned and n8n could not record it', async () => {
		// Attempt 1 holds the event while n8n is (slowly) failing to record it; attempt 2 waits
		// in the trigger and its sender gives up; n8n then fails attempt 1 (500) and attempt 2
		// too, whose 500 goes to a closed socket. Attempt 3 must not wait for good.
		let failFirst: () => void = () => undefined;
		const firstFails = new Promise<void>((resolve) => (failFirst = resolve));
		let recordings = 0;
		const recordExecution = async (): Promise<void> => {
			recordings += 1;
			if (recordings === 1) await firstFails;
			if (recordings <= 2) throw new Error('database unavailable');
		};
		const listener = await listen({ ...setupFor(), recordExecution });
		const body = eventBody('audit.completed');
		const first = deliver(listener, body);
		await vi.waitFor(() => expect(recordings).toBe(1));

		const abandoned = sendSigned(listener, body);
		await vi.waitFor(() => expect(listener.received()).toBe(2));
		abandoned.destroy();
		await new Promise((resolve) => abandoned.once('close', resolve));
		await new Promise((resolve) => setTimeout(resolve, 100));

		// From here the grace runs on fake time: no real 60 s wait.
		vi.useFakeTimers({ toFake: ['setTimeout'] });
		failFirst();
		expect((await first).status).toBe(500);
		await advanceUntil(() => recordings === 2);
		await advanceUntil(() => listener.calls.length === 2);

		// Through node:http, whose timers the fake ones leave alone (fetch's are global).
		let third: DeliveryAnswer | undefined;
		sendSigned(listener, body).once('response', (response) => {
			const chunks: Buffer[] = [];
			response.on('data', (chunk: Buffer) => chunks.push(chunk));
			response.on('end', () => {
				const text = Buffer.concat(chunks).toString('utf8');
				third = { status: response.statusCode ?? 0, body: JSON.parse(text) as IDataObject };
			});
		});
		await advanceUntil(() => listener.received() === 3);
		await vi.advanceTimersByTimeAsync(59_000);
		expect(third).toBeUndefined();
		await advanceUntil(() => third !== undefined, 2_000);
		expect(third).toEqual(STARTED);
		await listener.waitForCalls(3);
		expect(startedIds(listener)).toEqual([JSON.parse(body).id]);
	});

	it('starts each event with its own id, also when they arrive together', async () => {
		const listener = await listen(setupFor());
		const bodies = Array.from({ length: 20 }, () => eventBody('alert.resolved'));
		const answers = await Promise.all(bodies.map((body) => deliver(listener, body)));

		expect(answers).toEqual(bodies.map(() => STARTED));
		await listener.waitForCalls(20);
		expect(startedIds(listener).sort()).toEqual(bodies.map((body) => JSON.parse(body).id).sort());

		// n8n saves static data whole, each call the copy it loaded at its start, and the last save
		// wins: every save lists the events the process knew started when it was written, so the
		// last one holds all 20.
		expect(Object.keys(storedEvents(listener.staticData))).toHaveLength(20);
		expect(await deliver(listener, bodies[0])).toEqual(DUPLICATE);
		expect(await deliver(listener, eventBody('alert.resolved'))).toEqual(STARTED);
		expect(Object.keys(storedEvents(listener.staticData))).toHaveLength(21);
	});

	it('tells events without an id apart by their exact body', async () => {
		const listener = await listen(setupFor());
		const body = '{"type":"site.added","data":{"siteId":"site_9"}}';
		expect(await deliver(listener, body)).toEqual(STARTED);
		expect(await deliver(listener, body)).toEqual(DUPLICATE);
		// The same JSON with other bytes is another body, so another event.
		expect(await deliver(listener, '{"type":"site.added","data":{"siteId":"site_9"}} ')).toEqual(
			STARTED,
		);
		expect(await deliver(listener, '{"type":"site.added","data":{"siteId":"site_8"}}')).toEqual(
			STARTED,
		);
		await listener.waitForCalls(4);
		expect(listener.runs()).toHaveLength(3);
	});

	it('keeps the memory per workflow trigger node: another node starts on the same event', async () => {
		const first = await listen(setupFor());
		const second = await listen(setupFor());
		const body = eventBody('audit.completed');
		expect(await deliver(first, body)).toEqual(STARTED);
		expect(await deliver(second, body)).toEqual(STARTED);
		expect(await deliver(first, body)).toEqual(DUPLICATE);
		expect(await deliver(second, body)).toEqual(DUPLICATE);
	});

	it('forgets an event after the window (24 hours by default), in memory and in the static data', async () => {
		const start = Date.now();
		vi.useFakeTimers({ toFake: ['Date'], now: start });
		const setup = setupFor();
		const listener = await listen(setup);
		const body = eventBody('alert.opened');
		expect(await deliver(listener, body)).toEqual(STARTED);

		vi.setSystemTime(start + 24 * HOUR_MS - 60_000);
		expect(await deliver(listener, body)).toEqual(DUPLICATE);
		vi.setSystemTime(start + 24 * HOUR_MS + 60_000);
		expect(await deliver(listener, body)).toEqual(STARTED);

		// A shorter window, across a restart.
		const short = setupFor({ options: { duplicateWindowHours: 1 } });
		const other = eventBody('alert.opened');
		const beforeRestart = await listen(short);
		expect(await deliver(beforeRestart, other)).toEqual(STARTED);
		forgetProcessMemory();
		const afterRestart = await listen({ ...short, staticData: beforeRestart.staticData });
		vi.setSystemTime(start + 25 * HOUR_MS);
		expect(await deliver(afterRestart, other)).toEqual(DUPLICATE);
		vi.setSystemTime(start + 26 * HOUR_MS + 60_000);
		expect(await deliver(afterRestart, other)).toEqual(STARTED);
		await afterRestart.waitForCalls(2);
		expect(afterRestart.runs()).toHaveLength(1);
	});

	it.each(['', ' ', '={{ "" }}', 'soon'])(
		'keeps the 24-hour window when the Duplicate Window is blank or not a number (%j), rather than turning the check off',
		async (duplicateWindowHours) => {
			const start = Date.now();
			vi.useFakeTimers({ toFake: ['Date'], now: start });
			const listener = await listen(setupFor({ options: { duplicateWindowHours } }));
			const body = eventBody('alert.opened');
			expect(await deliver(listener, body)).toEqual(STARTED);
			expect(await deliver(listener, body)).toEqual(DUPLICATE);
			vi.setSystemTime(start + 24 * HOUR_MS - 60_000);
			expect(await deliver(listener, body)).toEqual(DUPLICATE);
			vi.setSystemTime(start + 24 * HOUR_MS + 60_000);
			expect(await deliver(listener, body)).toEqual(STARTED);
			await listener.waitForCalls(4);
			expect(listener.runs()).toHaveLength(2);
		},
	);

	it('starts every delivery with a window of 0 and keeps nothing', async () => {
		const listener = await listen(setupFor({ options: { duplicateWindowHours: 0 } }));
		const body = eventBody('audit.completed');
		expect(await deliver(listener, body)).toEqual(STARTED);
		expect(await deliver(listener, body)).toEqual(STARTED);
		await listener.waitForCalls(2);
		expect(listener.runs()).toHaveLength(2);
		expect(listener.staticData.saved).toEqual({});
	});

	it('deletes the events it kept once the window is set to 0', async () => {
		const store: StaticDataStore = { saved: {} };
		const body = eventBody('audit.completed');
		expect(await deliver(await listen(setupFor({}, store)), body)).toEqual(STARTED);
		expect(Object.keys(storedEvents(store))).toHaveLength(1);

		const off = await listen(setupFor({ options: { duplicateWindowHours: 0 } }, store));
		expect(await deliver(off, body)).toEqual(STARTED);
		expect(store.saved).toEqual({ [STATIC_KEY]: {} });
	});

	it(`keeps at most ${MAX_STARTED_EVENTS} events in the static data, forgetting the oldest first`, async () => {
		const now = Math.floor(Date.now() / 1000);
		// Seeded as another process stores them: batches of 500 digests, the oldest batch first.
		const seed = (index: number): string => `seed${String(index).padStart(8, '0')}`;
		const seeded = Object.fromEntries(
			Array.from({ length: MAX_STARTED_EVENTS / 500 }, (_, batch) => {
				const at = now - 3600 + batch;
				const digests = Array.from({ length: 500 }, (_, index) => seed(batch * 500 + index));
				return [`batch${batch}`, `500.${at}.${at}.${digests.join('')}`];
			}),
		);
		const store: StaticDataStore = { saved: { [STATIC_KEY]: { [STATIC_DATA_FIELD]: seeded } } };
		const listener = await listen(setupFor({}, store));
		expect(await deliver(listener, eventBody('site.added'))).toEqual(STARTED);

		const stored = Object.keys(storedEvents(store));
		expect(stored).toHaveLength(MAX_STARTED_EVENTS);
		expect(stored).not.toContain(seed(0));
		expect(stored).toContain(seed(MAX_STARTED_EVENTS - 1));
		expect(stored.filter((digest) => !digest.startsWith('seed'))).toHaveLength(1);
	});

	it('answers rejected and unselected deliveries at once, starting and remembering nothing', async () => {
		const listener = await listen(setupFor({ events: ['alert.opened'] }));
		const unselected = eventBody('audit.completed');
		const forged = eventBody('alert.opened');
		const answers = [
			await deliver(listener, unselected),
			await postDelivery(listener.url, { body: forged, secret: 'whsec_forged' }),
			await postDelivery(listener.url, {
				body: forged,
				secret: SECRET,
				timestamp: epochSeconds(-3600),
			}),
		];
		expect(
			answers.map((answer) => [answer.status, answer.body.ignored ?? answer.body.error]),
		).toEqual([
			[200, 'event_not_selected'],
			[401, 'signature_mismatch'],
			[401, 'timestamp_too_old'],
		]);
		const calls = await listener.waitForCalls(3);
		expect(
			calls.map((call) => [call.answeredByNode, call.executionRecordedBeforeAnswer, call.run]),
		).toEqual(calls.map(() => [true, false, undefined]));
		expect(listener.staticData.saved).toEqual({});
		// Nothing was remembered: the genuine delivery of the rejected event starts.
		expect(await deliver(listener, forged)).toEqual(STARTED);
	});

	it('keeps no secret, signature, id or payload in the static data: only digests and times', async () => {
		const listener = await listen(setupFor({ options: { includeDeliveryHeaders: true } }));
		const bodies = [
			eventBody('alert.opened', { url: 'https://shop.example/checkout' }),
			'{"type":"site.added","data":{"name":"no id"}}',
		];
		const signatures: string[] = [];
		for (const body of bodies) {
			const timestamp = epochSeconds();
			const signature = sign(SECRET, timestamp, body);
			signatures.push(signature);
			expect(await postDelivery(listener.url, { body, timestamp, signature })).toEqual(STARTED);
		}

		const saved = JSON.stringify(listener.staticData.saved);
		for (const text of [
			SECRET,
			JSON.parse(bodies[0]).id as string,
			'shop.example',
			'no id',
			...signatures,
		]) {
			expect(saved).not.toContain(text);
		}
		const events = storedEvents(listener.staticData);
		expect(Object.keys(listener.staticData.saved)).toEqual([STATIC_KEY]);
		expect(Object.keys(listener.staticData.saved[STATIC_KEY] as IDataObject)).toEqual([
			STATIC_DATA_FIELD,
		]);
		const stored = (listener.staticData.saved[STATIC_KEY] as IDataObject)[STATIC_DATA_FIELD];
		for (const value of Object.values(stored as IDataObject))
			expect(value).toMatch(/^\d+\.\d+\.\d+\.([A-Za-z0-9_-]{12})+$/);
		expect(Object.entries(events)).toHaveLength(2);
		for (const [digest, at] of Object.entries(events)) {
			expect(digest).toMatch(/^[A-Za-z0-9_-]{12}$/);
			expect(typeof at).toBe('number');
		}
	});

	it('starts every delivery to the Test URL: a test run is one the user asked for', async () => {
		const listener = await listen({ ...setupFor(), mode: 'manual' });
		const body = eventBody('alert.opened');
		expect(await deliver(listener, body)).toEqual(STARTED);
		expect(await deliver(listener, body)).toEqual(STARTED);
		await listener.waitForCalls(2);
		expect(listener.runs().map((run) => run.run.mode)).toEqual(['manual', 'manual']);
		const event = (JSON.parse(body) as { id: string }).id;
		expect(startedIds(listener)).toEqual([event, event]);
		expect(listener.staticData.saved).toEqual({});
	});

	it('answers 500 to a delivery to the Test URL n8n could not record; the next one starts', async () => {
		let failures = 1;
		const recordExecution = async (): Promise<void> => {
			if (failures-- > 0) throw new Error('database unavailable');
		};
		const listener = await listen({ ...setupFor(), mode: 'manual', recordExecution });
		const body = eventBody('alert.opened');
		expect((await deliver(listener, body)).status).toBe(500);
		expect(await deliver(listener, body)).toEqual(STARTED);
		await listener.waitForCalls(2);
		expect(listener.runs()).toHaveLength(1);
	});
});
