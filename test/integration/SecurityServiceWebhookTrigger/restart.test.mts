import { describe, expect, it } from 'vitest';

import { activateWebhook } from '../../support/harness/runWebhook.mts';
import {
	emittedIds,
	forgetProcessMemory,
	listReads,
	ring,
	savedMemory,
	webhookTriggerSandbox,
} from './webhookTrigger.mts';

const { sandbox, publish, listen } = webhookTriggerSandbox();

describe('Security Service Webhook Trigger: restart', () => {
	it('a new process, with only the saved static data, emits each new record once', async () => {
		const { setup, listener } = await publish();
		sandbox.addThreats(2);
		await ring(listener);
		await listener.waitForCalls(1);
		expect(emittedIds(listener)).toEqual(['thr_28', 'thr_29']);
		expect(savedMemory(listener)).toMatchObject({ changes: 1 });
		sandbox.addThreat();
		await listener.close();

		// n8n restarts: this process's memory is gone; the static data is what was saved.
		// Activating the workflow again finds the memory (checkExists) and reads nothing.
		forgetProcessMemory();
		const reads = listReads(sandbox).length;
		await activateWebhook(setup);
		expect(listReads(sandbox)).toHaveLength(reads);
		const restarted = await listen(setup);
		await ring(restarted);
		await restarted.waitForCalls(1);
		expect(emittedIds(restarted)).toEqual(['thr_30']);

		forgetProcessMemory();
		const again = await listen(setup);
		await ring(again);
		await again.waitForCalls(1);
		expect(again.runs()).toHaveLength(0);
		sandbox.addThreat();
		await ring(again);
		await again.waitForCalls(2);
		expect(emittedIds(again)).toEqual(['thr_31']);
	});

	it('a process that read nothing new saves its memory for the next one', async () => {
		const { setup, listener } = await publish();
		sandbox.addThreat({ status: 'resolved' });
		const parameters = { event: 'newThreat', filters: { status: 'open' } };
		// Other filters, same memory: the resolved threat is seen, not emitted, so the memory changes without an emit.
		const filtered = await listen({
			...setup,
			workflow: {
				...setup.workflow,
				nodes: [{ ...setup.workflow.nodes[0], parameters }],
			},
		});
		await ring(filtered);
		await filtered.waitForCalls(1);
		expect(filtered.runs()).toHaveLength(0);

		forgetProcessMemory();
		const restarted = await listen(setup);
		await ring(restarted);
		await restarted.waitForCalls(1);
		expect(restarted.runs()).toHaveLength(0);
		expect(listener.runs()).toHaveLength(0);
	});
});
