import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { nodes } from '../../../../nodes/SecurityService/webhookTrigger/rings.ts';
import { processPacers } from '../../../../nodes/shared/pacing/pacers.ts';
import { RECORDING_GRACE_MS } from '../../../../nodes/shared/webhooks/n8nWebhookContract.ts';
import { FakeN8n, LATE_RECORDING_MS, type Threat } from '../../../support/harness/fakeN8n.mts';

/** Steps go on at once, except those whose label a test holds until it lets them go. */
function steps() {
	const held = new Map<string, () => void>();
	const holding = new Set<string>();
	return {
		step: async (label: string) => {
			if (!holding.has(label)) return;
			holding.delete(label);
			await new Promise<void>((resolve) => held.set(label, resolve));
		},
		hold: (label: string) => void holding.add(label),
		release: (label: string) => {
			held.get(label)?.();
			held.delete(label);
		},
		isHeld: (label: string) => held.has(label),
	};
}

const threat = (id: string): Threat => ({ id, severity: 'low' });
const NEW_THREAT = { event: 'newThreat' };

/** n8n with the trigger published while the service lists `listed`; `emitted`: each execution's records. */
async function published(listed: string[] = []) {
	const control = steps();
	const emitted: string[][] = [];
	const n8n = new FakeN8n(control.step, { execution: (ids) => emitted.push(ids) });
	n8n.threats = listed.map(threat);
	await n8n.publish(NEW_THREAT);
	return { control, emitted, n8n };
}

async function until(condition: () => boolean): Promise<void> {
	for (let tick = 0; tick < 1000 && !condition(); tick++) await vi.advanceTimersByTimeAsync(0);
	expect(condition()).toBe(true);
}

describe('Security Service Webhook Trigger: callers that leave and late recordings', () => {
	beforeEach(() => {
		nodes.clear();
		processPacers.clear();
		vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
	});
	afterEach(() => vi.useRealTimers());

	it('a caller that left during the read, then an execution n8n could not record: the next ring waits the grace, then emits', async () => {
		const { control, emitted, n8n } = await published(['t1']);
		n8n.threats.unshift(threat('t2'));

		control.hold('the service serves a read');
		const first = n8n.ring({ leaves: true, notRecorded: true });
		await until(() => control.isHeld('the service serves a read'));
		const second = n8n.ring();
		await vi.advanceTimersByTimeAsync(0);
		control.release('the service serves a read');
		expect(await first).toEqual({ ring: 1 });

		let answered = false;
		void second.then(() => (answered = true));
		await vi.advanceTimersByTimeAsync(RECORDING_GRACE_MS - 1);
		expect(answered).toBe(false);
		await vi.advanceTimersByTimeAsync(1);
		expect(await second).toEqual({ ring: 2, status: 200, body: { received: true } });
		expect(emitted).toEqual([['t2']]);

		// And every later ring is answered at once.
		n8n.threats.unshift(threat('t3'));
		expect((await n8n.ring()).status).toBe(200);
		expect(emitted).toEqual([['t2'], ['t3']]);
	});

	it('a recording later than the grace, no read since: the memory is kept, nothing is emitted twice', async () => {
		const { emitted, n8n } = await published();
		n8n.threats.unshift(threat('t1'));

		const first = n8n.ring({ leaves: true, late: true });
		// The grace runs out first (settle(false)), then n8n records the execution (settle(true)).
		await vi.advanceTimersByTimeAsync(LATE_RECORDING_MS);
		expect(await first).toEqual({ ring: 1 });
		expect(emitted).toEqual([['t1']]);

		expect(await n8n.ring()).toEqual({ ring: 2, status: 200, body: { received: true } });
		expect(emitted).toEqual([['t1']]);
	});

	it('limit: a recording later than the grace after another ring read the list emits its records twice', async () => {
		const { emitted, n8n } = await published();
		n8n.threats.unshift(threat('t1'));

		const first = n8n.ring({ leaves: true, late: true });
		await vi.advanceTimersByTimeAsync(RECORDING_GRACE_MS);
		// The grace is over: this ring reads again from the memory before t1.
		expect((await n8n.ring()).status).toBe(200);
		await vi.advanceTimersByTimeAsync(LATE_RECORDING_MS);
		await first;
		expect(emitted).toEqual([['t1'], ['t1']]);
	});

	it('a recording later than the grace, while a later read waits to be recorded, keeps nothing: that read keeps its own', async () => {
		const { control, emitted, n8n } = await published();
		n8n.threats.unshift(threat('t1'));

		const first = n8n.ring({ leaves: true, late: true });
		await vi.advanceTimersByTimeAsync(RECORDING_GRACE_MS);
		n8n.threats.unshift(threat('t2'));
		control.hold('ring 2: n8n creates the execution');
		const second = n8n.ring();
		await until(() => control.isHeld('ring 2: n8n creates the execution'));
		await vi.advanceTimersByTimeAsync(LATE_RECORDING_MS - RECORDING_GRACE_MS);
		await first;
		control.release('ring 2: n8n creates the execution');
		expect((await second).status).toBe(200);

		expect(await n8n.ring()).toEqual({ ring: 3, status: 200, body: { received: true } });
		// t1 twice: the documented limit; t2 once.
		expect(emitted).toEqual([['t1'], ['t2', 't1']]);
	});
});

describe('Security Service Webhook Trigger: publications while rings wait', () => {
	beforeEach(() => {
		nodes.clear();
		processPacers.clear();
	});

	it('a ring of the version before a new publication with other filters reads nothing, so the new memory stays', async () => {
		const { control, emitted, n8n } = await published(['t1']);
		n8n.threats.unshift(threat('t2'));

		control.hold('ring 1: n8n creates the execution');
		const first = n8n.ring();
		while (!control.isHeld('ring 1: n8n creates the execution')) await Promise.resolve();
		// Loaded with the version before: waits for the first ring's records to be recorded.
		const waiting = n8n.ring();
		await n8n.publish({ event: 'newThreat', filters: { severity: 'critical' } }, 'update');
		control.release('ring 1: n8n creates the execution');
		expect((await first).status).toBe(200);
		expect((await waiting).body).toMatchObject({ error: 'not_ready' });

		n8n.threats.unshift({ id: 't3', severity: 'critical' });
		expect((await n8n.ring()).status).toBe(200);
		expect(emitted).toEqual([['t2'], ['t3']]);
	});

	it('a ring whose read is served after unpublishing emits nothing added meanwhile (found by the model)', async () => {
		const { control, emitted, n8n } = await published();

		control.hold('the service serves a read');
		const inFlight = n8n.ring();
		while (!control.isHeld('the service serves a read')) await Promise.resolve();
		const publishing = n8n.publish(NEW_THREAT, 'activate', true);
		n8n.threats.unshift(threat('t1'));
		control.release('the service serves a read');
		expect((await inFlight).body).toMatchObject({ error: 'not_ready' });
		await publishing;

		n8n.threats.unshift(threat('t2'));
		expect((await n8n.ring()).status).toBe(200);
		expect(emitted).toEqual([['t2']]);
	});
});
