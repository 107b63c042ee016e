import { describe, expect, it } from 'vitest';

import { serviceAnswer, withSandbox } from '../../support/harness/sandbox.mts';
import { withReceivers } from '../../support/harness/webhookReceiver.mts';
import type { DeliveryAttempt } from '../../support/sandbox/index.mts';

const sandbox = withSandbox();
const startReceiver = withReceivers();

async function control(
	method: string,
	path: string,
	body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
	const response = await fetch(`${sandbox.controlUrl}${path}`, {
		method,
		headers: { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A POST to the security service with its key. */
async function postToSecurity(path: string, body: unknown): Promise<Record<string, unknown>> {
	const response = await fetch(`${sandbox.securityUrl}${path}`, {
		method: 'POST',
		headers: { authorization: `Bearer ${sandbox.securityKey}`, 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	return (await response.json()) as Record<string, unknown>;
}

async function register(url: string, events?: string[]): Promise<string> {
	const added = await control('POST', '/security/webhooks', { url, events });
	expect(added.status).toBe(201);
	return added.body.id as string;
}

/** A promise and the function that settles it. */
function signal<T = void>(): { promise: Promise<T>; settle: (value: T) => void } {
	let settle!: (value: T) => void;
	const promise = new Promise<T>((resolve) => (settle = resolve));
	return { promise, settle };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const eventsOf = (deliveries: DeliveryAttempt[]): string[] =>
	deliveries.map((delivery) => delivery.type).sort();

describe('security webhooks', () => {
	it('rings once for a new threat: an unsigned JSON POST naming the event and the threat', async () => {
		const receiver = await startReceiver();
		const endpointId = await register(receiver.url);
		const threat = await control('POST', '/security/threats', { siteId: 'st_2' });

		const [delivery] = await sandbox.waitForSecurityDeliveries((all) => all.length === 1);
		expect([delivery.endpointId, delivery.url, delivery.type]).toEqual([
			endpointId,
			receiver.url,
			'threat.detected',
		]);
		expect([delivery.attempt, delivery.status]).toEqual([1, 200]);
		expect(receiver.received).toHaveLength(1);
		const [{ headers, rawBody }] = receiver.received;
		expect(headers).toMatchObject({
			'content-type': 'application/json',
			'user-agent': expect.stringMatching(/^security-service-webhooks\//) as unknown,
		});
		expect(Object.keys(headers).filter((name) => name.includes('signature'))).toEqual([]);
		const ring = JSON.parse(rawBody) as Record<string, unknown>;
		expect(ring).toEqual({
			id: delivery.eventId,
			event: 'threat.detected',
			createdAt: expect.any(String) as unknown,
			data: { threatId: threat.body.id, siteId: 'st_2' },
		});
		expect(ring.id).toMatch(/^evt_/);
		expect((await control('GET', '/security/deliveries')).body.deliveries).toEqual([delivery]);
		expect(sandbox.deliveries).toEqual([]);
	});

	it('rings as scans are triggered and complete and as updates and reports appear, for the events an endpoint takes', async () => {
		sandbox.setOptions({ queueDelayMs: 100 });
		const all = await startReceiver();
		await register(all.url);
		const completedOnly = await startReceiver();
		const completedId = await register(completedOnly.url, ['scan.completed']);
		expect(
			(await control('POST', '/security/webhooks', { url: all.url, events: ['x'] })).status,
		).toBe(400);
		expect(
			(await control('POST', '/security/webhooks', { url: all.url, secret: 's' })).status,
		).toBe(400);

		const scan = await postToSecurity('/scans/trigger', { siteId: 'st_1' });
		await postToSecurity('/sites', { url: 'https://new.example.org' });
		sandbox.addUpdate();
		sandbox.addReport();

		const deliveries = await sandbox.waitForSecurityDeliveries((attempts) => attempts.length === 5);
		expect(eventsOf(deliveries.filter((d) => d.endpointId !== completedId))).toEqual([
			'report.ready',
			'scan.completed',
			'scan.created',
			'update.available',
		]);
		const completed = deliveries.filter((d) => d.endpointId === completedId);
		expect(completed.map((d) => JSON.parse(d.body) as unknown)).toEqual([
			expect.objectContaining({ data: { scanId: scan.id, siteId: 'st_1' } }),
		]);
		expect(deliveries.every((d) => d.status === 200)).toBe(true);
	});

	it('rings a burst at once: each about a new threat, or all about the newest one', async () => {
		const count = 20;
		const allArrived = signal<number>();
		const receiver = await startReceiver((n) => {
			// Held until every ring is in: rings sent one after the other would never all arrive.
			if (n === count) allArrived.settle(200);
			return allArrived.promise;
		});
		await register(receiver.url);

		const burst = await control('POST', '/security/ring', { count });
		expect(burst.status).toBe(202);
		const events = burst.body.events as Array<{ id: string; data: { threatId: string } }>;
		expect(new Set(events.map((event) => event.id)).size).toBe(count);
		await sandbox.waitForSecurityDeliveries((all) => all.length === count);
		const threats = sandbox.securityDeliveries.map(
			(d) => (JSON.parse(d.body) as { data: { threatId: string } }).data.threatId,
		);
		expect(threats.sort()).toEqual(events.map((event) => event.data.threatId).sort());
		const { counts } = (await control('GET', '/state')).body as { counts: Record<string, number> };
		expect(counts).toMatchObject({ security_threats: 27 + count, securityDeliveries: count });

		const repeat = await control('POST', '/security/ring', { count: 3, newRecords: false });
		const newest = `thr_${27 + count}`;
		expect((repeat.body.events as Array<{ data: unknown }>).map((event) => event.data)).toEqual(
			Array.from({ length: 3 }, () => ({ threatId: newest, siteId: 'st_1' })),
		);
		await sandbox.waitForSecurityDeliveries((all) => all.length === count + 3);
		expect(sandbox.securityDeliveries.every((d) => d.status === 200)).toBe(true);

		const scans = await control('POST', '/security/ring', { event: 'scan.completed' });
		const [scanEvent] = scans.body.events as Array<{ data: { scanId: string } }>;
		const listed = (await serviceAnswer(sandbox, 'security', '/scans')) as {
			scans: Array<{ id: string; status: string }>;
		};
		expect(listed.scans.at(-1)).toMatchObject({ id: scanEvent.data.scanId, status: 'completed' });

		for (const refused of [{ count: 0 }, { event: 'threat.gone' }, { newRecords: 'no' }]) {
			expect((await control('POST', '/security/ring', refused)).status).toBe(400);
		}
	});

	it('retries a ring answered non-2xx with the same body, then stops at a 2xx', async () => {
		sandbox.setOptions({ webhookBackoffMs: 20 });
		const receiver = await startReceiver((n) => (n < 3 ? 503 : 204));
		await register(receiver.url);
		sandbox.addThreat();

		const deliveries = await sandbox.waitForSecurityDeliveries((all) =>
			all.some((d) => d.status === 204),
		);
		expect(deliveries.map((d) => [d.attempt, d.status])).toEqual([
			[1, 503],
			[2, 503],
			[3, 204],
		]);
		expect(new Set(deliveries.map((d) => d.eventId)).size).toBe(1);
		expect(new Set(receiver.received.map((r) => r.rawBody)).size).toBe(1);
	});

	it('stops ringing a removed endpoint, pending retries included', async () => {
		sandbox.setOptions({ webhookBackoffMs: 20 });
		const firstArrived = signal();
		const removed = signal<number>();
		const failing = await startReceiver(() => {
			firstArrived.settle();
			return removed.promise;
		});
		const failingId = await register(failing.url);
		sandbox.addThreat();
		await firstArrived.promise;

		expect((await control('DELETE', `/security/webhooks/${failingId}`)).status).toBe(200);
		expect((await control('DELETE', `/security/webhooks/${failingId}`)).status).toBe(404);
		removed.settle(500);
		await sandbox.waitForSecurityDeliveries((all) => all.length === 1);
		const healthy = await startReceiver();
		await register(healthy.url);
		sandbox.addThreat();
		await sandbox.waitForSecurityDeliveries((all) => all.length === 2);
		// Past the first retry's moment: a retry to the removed endpoint would be recorded by now.
		await sleep(200);

		expect(failing.received).toHaveLength(1);
		expect(sandbox.securityDeliveries.map((d) => [d.url, d.status])).toEqual([
			[failing.url, 500],
			[healthy.url, 200],
		]);
		expect((await control('GET', '/security/webhooks')).body.endpoints).toHaveLength(1);
	});

	it('forgets security endpoints, deliveries and pending retries on reset, keeping the performance ones apart', async () => {
		sandbox.setOptions({ webhookBackoffMs: 20 });
		const failing = await startReceiver(() => 500);
		await register(failing.url);
		sandbox.addThreat();
		await sandbox.waitForSecurityDeliveries((all) => all.length === 1);

		expect((await control('POST', '/reset')).status).toBe(200);
		await sleep(200);
		expect(sandbox.securityDeliveries).toEqual([]);
		const state = (await control('GET', '/state')).body;
		expect(state.securityEndpoints).toEqual([]);
		expect(state.counts).toMatchObject({ securityDeliveries: 0, security_threats: 27 });

		const performance = await startReceiver();
		sandbox.addWebhookEndpoint(performance.url);
		sandbox.addThreat();
		sandbox.emit('site.added');
		await sandbox.waitForDeliveries((all) => all.length === 1);
		expect(sandbox.securityDeliveries).toEqual([]);
		expect(performance.received).toHaveLength(1);
	});
});
