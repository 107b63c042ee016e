import { describe, expect, it } from 'vitest';

import { captureLogs } from '../../support/harness/logs.mts';
import { activateWebhook, runWebhookMethod } from '../../support/harness/runWebhook.mts';
import { callsTo } from '../../support/harness/sandbox.mts';
import {
	emittedIds,
	listReads,
	ring,
	savedMemory,
	TRIGGER,
	webhookTriggerSandbox,
} from './webhookTrigger.mts';

const { sandbox, setupFor, listen, publish } = webhookTriggerSandbox();
const logged = captureLogs();

describe('Security Service Webhook Trigger: publishing', () => {
	it('reads the list once with the API key and remembers it until deleted', async () => {
		const setup = setupFor();
		expect(await runWebhookMethod(setup, 'checkExists')).toBe(false);
		expect(await runWebhookMethod(setup, 'create')).toBe(true);

		expect(callsTo(sandbox, 'security')).toEqual([
			{ method: 'GET', path: '/threats', query: {}, auth: `Bearer ${sandbox.securityKey}` },
		]);
		// n8n starting (init) keeps it; a publication takes a new one (publications.test.mts).
		expect(await runWebhookMethod(setup, 'checkExists', 'init')).toBe(true);
		expect(setup.staticData?.saved[`node:${TRIGGER}`]).toEqual({
			seen: expect.objectContaining({ publishedAt: expect.any(String), changes: 0 }),
		});

		expect(await runWebhookMethod(setup, 'delete')).toBe(true);
		expect(await runWebhookMethod(setup, 'checkExists', 'init')).toBe(false);
		expect(setup.staticData?.saved[`node:${TRIGGER}`]).toEqual({});
	});

	it('static data without a publishing time is no memory: publishing reads the list', async () => {
		const setup = setupFor();
		setup.staticData!.saved[`node:${TRIGGER}`] = { seen: { memory: {}, changes: 3 } };
		expect(await runWebhookMethod(setup, 'checkExists', 'init')).toBe(false);
		await activateWebhook(setup);
		expect(listReads(sandbox)).toHaveLength(1);
		expect(savedMemory({ staticData: setup.staticData! })).toMatchObject({ changes: 0 });
	});

	it('a list it cannot read fails the publishing and remembers nothing', async () => {
		const setup = setupFor();
		sandbox.setFault({ service: 'security', path: '/threats', kind: 'status503', times: 1 });

		await expect(runWebhookMethod(setup, 'create')).rejects.toThrow(/HTTP 503/);
		expect(await runWebhookMethod(setup, 'checkExists')).toBe(false);
		expect(setup.staticData?.saved).toEqual({});
	});

	it('a ring before publishing saved the memory reads nothing and asks to be sent again', async () => {
		// n8n serves the URL before create's memory is saved: such a ring cannot tell what is new.
		const listener = await listen(setupFor());
		sandbox.addThreat();

		const early = await ring(listener);
		expect(early).toEqual({
			status: 503,
			body: { error: 'not_ready', message: expect.stringContaining('call again') },
		});
		await listener.waitForCalls(1);
		expect(listReads(sandbox)).toEqual([]);
		expect(listener.runs()).toEqual([]);
		expect(savedMemory(listener)).toBeUndefined();
		expect(logged()).toContain('came before the workflow');
		expect(logged()).toContain('publish the workflow again');
		expect(logged()).toContain('"workflowId"');
	});

	it('never emits a record the list held when the workflow was published', async () => {
		const { listener } = await publish();
		const added = sandbox.addThreat().id;

		expect((await ring(listener)).status).toBe(200);
		await listener.waitForCalls(1);
		expect(emittedIds(listener)).toEqual([added]);
		expect(listener.runs()).toHaveLength(1);
	});

	it('publishing again remembers the list anew, whatever this process remembered', async () => {
		const { setup, listener } = await publish();
		sandbox.addThreat();
		await ring(listener);
		await listener.waitForCalls(1);
		await runWebhookMethod(setup, 'delete');
		const whileUnpublished = sandbox.addThreat().id;

		await runWebhookMethod(setup, 'create');
		const added = sandbox.addThreat().id;
		await ring(listener);
		await listener.waitForCalls(2);
		expect(emittedIds(listener)).toEqual(['thr_28', added]);
		expect(emittedIds(listener)).not.toContain(whileUnpublished);
	});
});

describe('Security Service Webhook Trigger: test URL', () => {
	it('listening reads nothing; a ring emits the newest matching record and saves nothing', async () => {
		const setup = setupFor({ event: 'newThreat', filters: { severity: 'critical' } }, 'manual');
		expect(await runWebhookMethod(setup, 'create')).toBe(true);
		expect(callsTo(sandbox, 'security')).toEqual([]);

		const inAMinute = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
		const critical = sandbox.addThreat({ severity: 'critical', detectedAt: inAMinute(1) }).id;
		sandbox.addThreat({ severity: 'low', detectedAt: inAMinute(2) });
		const listener = await listen(setup);
		expect((await ring(listener)).status).toBe(200);
		await listener.waitForCalls(1);

		expect(emittedIds(listener)).toEqual([critical]);
		expect(listReads(sandbox)).toHaveLength(1);
		expect(listener.staticData.saved).toEqual({});
		expect(savedMemory(listener)).toBeUndefined();
	});

	it('a ring that finds no matching record answers 200 and starts no run', async () => {
		const setup = setupFor({ event: 'newThreat', filters: { siteId: 'no-such-site' } }, 'manual');
		const listener = await listen(setup);
		expect(await ring(listener)).toEqual({ status: 200, body: { received: true } });
		await listener.waitForCalls(1);
		expect(listReads(sandbox)).toHaveLength(1);
		expect(listener.runs()).toHaveLength(0);
	});

	it('a list it cannot read is answered 503 with the reason', async () => {
		const listener = await listen(setupFor({ event: 'newThreat' }, 'manual'));
		sandbox.setFault({ service: 'security', path: '/threats', kind: 'status503', times: 1 });
		const answer = await ring(listener);
		await listener.waitForCalls(1);
		expect(answer).toEqual({
			status: 503,
			body: { error: 'list_unreadable', message: expect.stringMatching(/HTTP 503/) },
		});
		expect(listener.runs()).toHaveLength(0);
	});
});
