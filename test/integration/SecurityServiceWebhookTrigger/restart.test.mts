import { describe, expect, it } from 'vitest';

import { nodes } from '../../../nodes/SecurityService/webhookTrigger/rings.ts';
import { activateWebhook, runWebhookMethod } from '../../support/harness/runWebhook.mts';
import {
	emittedIds,
	forgetProcessMemory,
	listReads,
	ring,
	savedMemory,
	TRIGGER,
	webhookTriggerSandbox,
} from './webhookTrigger.mts';

const { sandbox, publish, listen, setupFor } = webhookTriggerSandbox();

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
		// Activating the workflow at start (init) finds the memory (checkExists) and reads nothing.
		forgetProcessMemory();
		const reads = listReads(sandbox).length;
		expect(await runWebhookMethod(setup, 'checkExists', 'init')).toBe(true);
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

	it('a process whose memory is older than the saved one takes the saved one', async () => {
		const { setup, listener } = await publish();
		sandbox.addThreat();
		await ring(listener);
		await listener.waitForCalls(1);
		const older = new Map(nodes);

		// Another process emits the next threat and saves its memory.
		forgetProcessMemory();
		const other = await listen(setup);
		sandbox.addThreat();
		await ring(other);
		await other.waitForCalls(1);
		expect(emittedIds(other)).toEqual(['thr_29']);
		expect(savedMemory(other)).toMatchObject({ changes: 2 });

		// The first process, with its memory of one change, rings again: nothing is new.
		forgetProcessMemory();
		older.forEach((rings, key) => nodes.set(key, rings));
		await ring(listener);
		await listener.waitForCalls(2);
		expect(emittedIds(listener)).toEqual(['thr_28']);
		expect(savedMemory(listener)).toMatchObject({ changes: 3 });
	});

	it('static data without a change count counts as none', async () => {
		const setup = setupFor();
		await activateWebhook(setup);
		const saved = setup.staticData!.saved[`node:${TRIGGER}`] as { seen: { changes?: number } };
		delete saved.seen.changes;
		const listener = await listen(setup);
		await ring(listener);
		await listener.waitForCalls(1);
		expect(savedMemory(listener)).toMatchObject({ changes: 1 });
	});

	it('a process keeps the memory of at most 1000 trigger nodes, dropping the least recently rung', async () => {
		const { listener } = await publish();
		await ring(listener);
		await listener.waitForCalls(1);
		const [[key, rings]] = nodes;
		for (let i = 0; i < 999; i++) nodes.set(`other-workflow/${i}`, rings);

		await ring(listener);
		await listener.waitForCalls(2);
		expect(nodes.size).toBe(1000);
		expect(nodes.has('other-workflow/0')).toBe(true);

		nodes.set('other-workflow/999', rings);
		await ring(listener);
		await listener.waitForCalls(3);
		expect(nodes.size).toBe(1000);
		expect([...nodes.keys()].at(-1)).toBe(key);
		expect(nodes.has('other-workflow/0')).toBe(false);
	});
});
