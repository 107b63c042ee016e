import { describe, expect, it } from 'vitest';

import { closedPort } from '../../support/harness/sandbox.mts';
import type { FaultKind } from '../../support/sandbox/types.mts';
import {
	captureLogs,
	emittedIds,
	listReads,
	ring,
	TRIGGER,
	webhookTriggerSandbox,
} from './webhookTrigger.mts';

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

			expect((await ring(listener, BODY)).status).toBe(503);
			await listener.waitForCalls(1);
			expect(listReads(sandbox)).toHaveLength(2);
			expect(listener.runs()).toHaveLength(0);
			expect(listener.staticData.saved).toEqual(saved);
			expect(logged()).toContain(`${TRIGGER}: a webhook call found the list unreadable`);
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
});
