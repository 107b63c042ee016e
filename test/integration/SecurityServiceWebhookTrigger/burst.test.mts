import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { captureLogs } from '../../support/harness/logs.mts';
import { activateWebhook } from '../../support/harness/runWebhook.mts';
import { emittedIds, listReads, ring, TRIGGER, webhookTriggerSandbox } from './webhookTrigger.mts';

const { sandbox, credentials, publish, setupFor, listen } = webhookTriggerSandbox();
const logged = captureLogs();
const RINGS = 20;

/**
 * A local security service whose threat list the test sets; `holdNextRead` makes the next read
 * wait, answering the list as it was when the read arrived, until the returned release is called.
 */
function threatListServer() {
	const list = { threats: [{ id: 't1' }], reads: 0 };
	let hold: { arrived: () => void; released: Promise<void> } | undefined;
	let server: Server;
	let baseUrl = '';
	beforeAll(async () => {
		server = createServer((_request, response) => {
			list.reads += 1;
			const body = JSON.stringify({ threats: list.threats });
			const held = hold;
			hold = undefined;
			held?.arrived();
			void (held?.released ?? Promise.resolve()).then(() => {
				response.setHeader('content-type', 'application/json');
				response.end(body);
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
	});
	afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
	const holdNextRead = () => {
		let release = () => {};
		const released = new Promise<void>((resolve) => (release = resolve));
		const arrived = new Promise<void>((resolve) => (hold = { arrived: resolve, released }));
		return { arrived, release };
	};
	return { list, holdNextRead, baseUrl: () => baseUrl };
}
const service = threatListServer();

describe('Security Service Webhook Trigger: a burst of rings', () => {
	it('20 rings at once emit each new record once, in one run, with few reads', async () => {
		const { listener } = await publish();
		sandbox.addThreats(5);
		const added = ['thr_28', 'thr_29', 'thr_30', 'thr_31', 'thr_32'];
		const before = listReads(sandbox).length;

		const answers = await Promise.all(Array.from({ length: RINGS }, () => ring(listener)));
		await listener.waitForCalls(RINGS);

		expect(answers.map((answer) => answer.status)).toEqual(Array(RINGS).fill(200));
		expect(listener.runs()).toHaveLength(1);
		expect([...emittedIds(listener)].sort()).toEqual(added);
		const reads = listReads(sandbox).length - before;
		// Rings during a read share the next one. Measured on 2 busy cores: 5 to 8 reads for 20 rings.
		expect(reads).toBeGreaterThanOrEqual(1);
		expect(reads).toBeLessThanOrEqual(RINGS / 2);
	});

	it('a second burst emits only what is new since the first, in a second run', async () => {
		const { listener } = await publish();
		const burst = async () =>
			await Promise.all(Array.from({ length: RINGS }, () => ring(listener)));
		sandbox.addThreats(3);
		const first = await burst();
		sandbox.addThreat();
		const second = await burst();
		await listener.waitForCalls(2 * RINGS);

		expect([...first, ...second].every((answer) => answer.status === 200)).toBe(true);
		// A run is listed once it ends, so the two may be listed in either order.
		expect(listener.runs()).toHaveLength(2);
		expect([...emittedIds(listener)].sort()).toEqual(['thr_28', 'thr_29', 'thr_30', 'thr_31']);
	});

	it('rings that share a read which finds new records start one run', async () => {
		const setup = { ...setupFor(), credentials: credentials(service.baseUrl()) };
		await activateWebhook(setup);
		const listener = await listen(setup);
		const firstRead = service.holdNextRead();
		const first = ring(listener);
		await firstRead.arrived;
		// These rings wait for the held read to end, then share the next one.
		const others = Array.from({ length: RINGS - 1 }, () => ring(listener));
		while (listener.received() < RINGS) await new Promise((resolve) => setImmediate(resolve));
		service.list.threats.unshift({ id: 't3' }, { id: 't2' });
		firstRead.release();
		const answers = await Promise.all([first, ...others]);
		await listener.waitForCalls(RINGS);

		expect(answers.map((answer) => answer.status)).toEqual(Array(RINGS).fill(200));
		expect(listener.runs()).toHaveLength(1);
		expect(emittedIds(listener)).toEqual(['t3', 't2']);
		// Publishing, the held read, and one read shared by the 19 rings that waited for it.
		expect(service.list.reads).toBe(3);
	});

	it('rings that share a read whose run n8n could not record are not answered 2xx', async () => {
		let failures = 1;
		const setup = {
			...setupFor(),
			credentials: credentials(service.baseUrl()),
			recordExecution: async () => {
				if (failures-- > 0) throw new Error('database unavailable');
			},
		};
		await activateWebhook(setup);
		const listener = await listen(setup);
		const firstRead = service.holdNextRead();
		const first = ring(listener);
		await firstRead.arrived;
		const others = [ring(listener), ring(listener)];
		while (listener.received() < 3) await new Promise((resolve) => setImmediate(resolve));
		service.list.threats.unshift({ id: 't5' }, { id: 't4' });
		firstRead.release();
		const answers = await Promise.all([first, ...others]);
		await listener.waitForCalls(3);

		// The held read found nothing new; of the two sharing the next read, the one whose run was
		// not recorded gets n8n's 500, the other a 503.
		expect(answers[0]).toEqual({ status: 200, body: { received: true } });
		expect(answers.map((answer) => answer.status).sort()).toEqual([200, 500, 503]);
		expect(answers.find((answer) => answer.status === 503)?.body).toEqual({
			error: 'not_recorded',
			message: 'The records this call found could not be recorded; call again.',
		});
		expect(listener.runs()).toHaveLength(0);

		await ring(listener);
		await listener.waitForCalls(4);
		expect(emittedIds(listener)).toEqual(['t5', 't4']);
	});

	it('a read that finds none of the records seen before logs a warning', async () => {
		const setup = { ...setupFor(), credentials: credentials(service.baseUrl()) };
		await activateWebhook(setup);
		const listener = await listen(setup);
		const seen = service.list.threats;
		service.list.threats = [{ id: 'n1' }];
		try {
			await ring(listener);
			await listener.waitForCalls(1);
		} finally {
			service.list.threats = seen;
		}
		expect(logged()).toContain(
			`${TRIGGER}: the list of threats no longer shows any of those seen before`,
		);
	});

	it('two trigger nodes never share a read', async () => {
		const threatsSetup = { ...setupFor(), credentials: credentials(service.baseUrl()) };
		await activateWebhook(threatsSetup);
		const threatRings = await listen(threatsSetup);
		const { listener: scanRings } = await publish({ event: 'newScan' });
		const added = sandbox.addScan().id;
		const firstRead = service.holdNextRead();
		const held = ring(threatRings);
		await firstRead.arrived;
		// This ring waits for the held read; the scan trigger's ring must not wait with it.
		const waiting = ring(threatRings);
		while (threatRings.received() < 2) await new Promise((resolve) => setImmediate(resolve));
		const scanRing = ring(scanRings);
		await scanRings.waitForCalls(1);
		firstRead.release();
		await Promise.all([held, waiting, scanRing]);

		expect(emittedIds(scanRings)).toEqual([added]);
		expect(listReads(sandbox).map((request) => request.path)).toEqual(['/scans', '/scans']);
	});
});
