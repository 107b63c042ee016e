import { describe, expect, it } from 'vitest';

import { activateWebhook, runWebhookMethod } from '../../support/harness/runWebhook.mts';
import {
	emittedIds,
	forgetProcessMemory,
	listReads,
	ring,
	savedMemory,
	webhookTriggerSandbox,
} from './webhookTrigger.mts';

const { sandbox, setupFor, listen, publish } = webhookTriggerSandbox();
const CRITICAL = { event: 'newThreat', filters: { severity: 'critical' } };

describe('Security Service Webhook Trigger: each publication has its own memory', () => {
	it('publishing again with other filters while the memory exists takes a new baseline', async () => {
		const { setup, listener } = await publish();
		sandbox.addThreat();
		await ring(listener);
		await listener.waitForCalls(1);

		// n8n activates the new version without removing the one before (no delete).
		const filtered = { ...setupFor(CRITICAL), staticData: setup.staticData };
		await activateWebhook(filtered);
		const critical = sandbox.addThreat({ severity: 'critical' }).id;
		const rings = await listen(filtered);
		expect(await ring(rings)).toEqual({ status: 200, body: { received: true } });
		await rings.waitForCalls(1);
		expect(emittedIds(rings)).toEqual([critical]);
	});

	it.each(['activate', 'update'] as const)(
		'checkExists answers false for a publication (%s) and true for n8n starting (init, leadershipChange)',
		async (activation) => {
			const { setup } = await publish();
			expect(await runWebhookMethod(setup, 'checkExists', activation)).toBe(false);
			expect(await runWebhookMethod(setup, 'checkExists', 'init')).toBe(true);
			expect(await runWebhookMethod(setup, 'checkExists', 'leadershipChange')).toBe(true);
		},
	);

	it('unpublished and published again while a ring is in flight: its save does not bring the old memory back', async () => {
		const { setup } = await publish();
		let whileUnpublished = '';
		let inFlight = true;
		const listener = await listen({
			...setup,
			// n8n creates the ring's execution, meanwhile the workflow is unpublished and published again.
			recordExecution: async () => {
				if (!inFlight) return;
				inFlight = false;
				await runWebhookMethod(setup, 'delete');
				whileUnpublished = sandbox.addThreat().id as string;
				await activateWebhook(setup);
			},
		});
		const first = sandbox.addThreat().id;
		expect((await ring(listener)).status).toBe(200);
		await listener.waitForCalls(1);
		expect(emittedIds(listener)).toEqual([first]);

		const added = sandbox.addThreat().id;
		await ring(listener);
		await listener.waitForCalls(2);
		expect(emittedIds(listener)).toEqual([first, added]);
		expect(emittedIds(listener)).not.toContain(whileUnpublished);
	});

	it('unpublished while a ring is in flight: its save does not bring the memory back', async () => {
		const { setup } = await publish();
		const listener = await listen({
			...setup,
			recordExecution: async () => void (await runWebhookMethod(setup, 'delete')),
		});
		sandbox.addThreat();
		expect((await ring(listener)).status).toBe(200);
		await listener.waitForCalls(1);
		expect(savedMemory(listener)).toBeUndefined();
		expect(await runWebhookMethod(setup, 'checkExists', 'init')).toBe(false);
	});

	it('n8n starting (init) keeps the memory: nothing read, nothing emitted again, nothing lost', async () => {
		const { setup, listener } = await publish();
		sandbox.addThreat();
		await ring(listener);
		await listener.waitForCalls(1);
		const whileDown = sandbox.addThreat().id;
		await listener.close();

		forgetProcessMemory();
		const reads = listReads(sandbox).length;
		if (!(await runWebhookMethod(setup, 'checkExists', 'init')))
			await runWebhookMethod(setup, 'create', 'init');
		expect(listReads(sandbox)).toHaveLength(reads);
		const restarted = await listen(setup);
		await ring(restarted);
		await restarted.waitForCalls(1);
		expect(emittedIds(restarted)).toEqual([whileDown]);
	});
});
