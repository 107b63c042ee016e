import { describe, expect, it } from 'vitest';

import { captureLogs } from '../../support/harness/logs.mts';
import { closedPort } from '../../support/harness/sandbox.mts';
import type { FaultKind } from '../../support/sandbox/types.mts';
import { emittedIds, listReads, ring, TRIGGER, webhookTriggerSandbox } from './webhookTrigger.mts';

const { sandbox, credentials, publish, listen } = webhookTriggerSandbox();
const logged = captureLogs();
const BODY = '{"id":"evt_body_marker","event":"threat.detected"}';

describe('Security Service Webhook Trigger: a failed read', () => {
	it.each<FaultKind>(['status500', 'status503', 'drop', 'malformedJson'])(
		'%s: answers 503, starts no run, keeps the memory; the next ring emits what is new',
		async (kind) => {
			const { listener } = await publish();
			const added = sandbox.addThreat().id;
			const saved = structuredClone(listener.staticData.saved);
			sandbox.setFault({ service: 'security', method: 'GET', path: '/threats', kind, times: 1 });

			expect(await ring(listener, BODY)).toEqual({
				status: 503,
				body: {
					error: 'list_unreadable',
					message: 'The trigger could not read the list; call again later.',
				},
			});
			await listener.waitForCalls(1);
			expect(listReads(sandbox)).toHaveLength(2);
			expect(listener.runs()).toHaveLength(0);
			expect(listener.staticData.saved).toEqual(saved);
			expect(logged()).toContain(`${TRIGGER}: a webhook call found the list unreadable`);
			expect(logged()).toContain('"workflowId":"test-workflow"');
			expect(logged()).not.toContain(sandbox.securityKey);
			expect(logged()).not.toContain('evt_body_marker');

			expect((await ring(listener)).status).toBe(200);
			await listener.waitForCalls(2);
			expect(emittedIds(listener)).toEqual([added]);
		},
	);

	it('a refused connection: answers 503, keeps the memory; the next ring emits what is new', async () => {
		const { setup, listener } = await publish();
		const added = sandbox.addThreat().id;
		const saved = structuredClone(listener.staticData.saved);
		const refused = await listen({
			...setup,
			credentials: credentials(`http://127.0.0.1:${await closedPort()}`),
		});

		expect((await ring(refused, BODY)).status).toBe(503);
		await refused.waitForCalls(1);
		expect(refused.runs()).toHaveLength(0);
		expect(listener.staticData.saved).toEqual(saved);
		expect(logged()).not.toContain(sandbox.securityKey);

		await ring(listener);
		await listener.waitForCalls(1);
		expect(emittedIds(listener)).toEqual([added]);
	});

	it('a slow read: a ring meanwhile waits for it and starts no second run', async () => {
		const { listener } = await publish();
		const added = sandbox.addThreat().id;
		sandbox.setFault({
			service: 'security',
			path: '/threats',
			kind: 'slow',
			delayMs: 300,
			times: 1,
		});

		const answers = await Promise.all([ring(listener), ring(listener)]);
		await listener.waitForCalls(2);
		expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
		expect(emittedIds(listener)).toEqual([added]);
		expect(listener.runs()).toHaveLength(1);
	});

	it('a burst whose read fails: its rings answer 503, no 2xx loses a record', async () => {
		const { listener } = await publish();
		sandbox.addThreats(3);
		sandbox.setFault({ service: 'security', path: '/threats', kind: 'status503', times: 1 });

		const answers = await Promise.all(Array.from({ length: 10 }, () => ring(listener)));
		await listener.waitForCalls(10);
		const statuses = answers.map((answer) => answer.status);
		expect(statuses).toContain(503);
		expect(listener.runs()).toHaveLength(statuses.includes(200) ? 1 : 0);

		await ring(listener);
		await listener.waitForCalls(11);
		expect(emittedIds(listener)).toEqual(['thr_28', 'thr_29', 'thr_30']);
	});

	it('an execution n8n could not record: not answered 2xx; the next ring emits the records again', async () => {
		let failures = 1;
		const { setup } = await publish();
		const listener = await listen({
			...setup,
			recordExecution: async () => {
				if (failures-- > 0) throw new Error('database unavailable');
			},
		});
		const added = sandbox.addThreat().id;

		expect((await ring(listener)).status).toBe(500);
		await listener.waitForCalls(1);
		expect(listener.runs()).toHaveLength(0);

		expect((await ring(listener)).status).toBe(200);
		await listener.waitForCalls(2);
		expect(emittedIds(listener)).toEqual([added]);
	});
});
