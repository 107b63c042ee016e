import type { INodeParameters } from 'n8n-workflow';
import { afterEach, describe, expect, it } from 'vitest';

import { requestsTo, withSandbox } from '../../support/harness/sandbox.mts';
import { packageNode } from '../../support/harness/runWorkflow.mts';
import {
	activateWebhook,
	startWebhookListener,
	type StaticDataStore,
	type WebhookListener,
	type WebhookSetup,
} from '../../support/harness/runWebhook.mts';

const TRIGGER = 'Security Webhook Trigger';
const sandbox = withSandbox();
const listeners: WebhookListener[] = [];

afterEach(async () => {
	await Promise.all(listeners.splice(0).map((listener) => listener.close()));
});

function setupFor(
	parameters: INodeParameters = { event: 'newThreat' },
	staticData?: StaticDataStore,
): WebhookSetup {
	const trigger = packageNode('securityServiceWebhookTrigger', parameters, {
		name: TRIGGER,
		credentials: ['securityServiceApi'],
	});
	return {
		workflow: { nodes: [trigger], connections: {} },
		credentials: {
			securityServiceApi: { baseUrl: sandbox.securityUrl, apiKey: sandbox.securityKey },
		},
		staticData,
	};
}

/** Publishes the workflow (webhookMethods create) and listens on its production URL. */
async function publish(parameters?: INodeParameters): Promise<WebhookListener> {
	const staticData: StaticDataStore = { saved: {} };
	const setup = setupFor(parameters, staticData);
	await activateWebhook(setup);
	const listener = await startWebhookListener(setup);
	listeners.push(listener);
	return listener;
}

async function ring(
	listener: WebhookListener,
	body = '{"event":"threat.detected"}',
	contentType = 'application/json',
) {
	return await fetch(listener.url, {
		method: 'POST',
		body,
		headers: { 'content-type': contentType },
	});
}

const emittedIds = (listener: WebhookListener) =>
	listener.runs().flatMap((run) => run.output(TRIGGER).map((item) => item.json.id as string));

describe('Security Service Webhook Trigger: rings', () => {
	it('publishing remembers the list; a ring emits only what is new, once', async () => {
		const listener = await publish();
		expect(requestsTo(sandbox, 'security').map((r) => r.path)).toEqual(['/threats']);
		sandbox.addThreat({ severity: 'high' });
		sandbox.addThreat();
		const answer = await ring(listener);
		expect(answer.status).toBe(200);
		await listener.waitForCalls(1);
		expect(emittedIds(listener)).toEqual(['thr_28', 'thr_29']);
		const again = await ring(listener, 'not json at all {', 'application/json');
		expect(again.status).toBe(200);
		await listener.waitForCalls(2);
		expect(emittedIds(listener)).toEqual(['thr_28', 'thr_29']);
		expect(requestsTo(sandbox, 'security')).toHaveLength(3);
	});

	it('a burst of 20 rings emits each new record once, in far fewer reads than rings', async () => {
		const listener = await publish();
		sandbox.addThreats(5);
		const before = requestsTo(sandbox, 'security').length;
		const answers = await Promise.all(Array.from({ length: 20 }, () => ring(listener)));
		expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
		await listener.waitForCalls(20);
		expect(emittedIds(listener)).toHaveLength(5);
		expect(new Set(emittedIds(listener)).size).toBe(5);
		expect(listener.runs()).toHaveLength(1);
		expect(requestsTo(sandbox, 'security').length - before).toBeLessThan(10);
	});

	it('a failed read answers 503 and loses nothing', async () => {
		const listener = await publish();
		sandbox.addThreat();
		sandbox.setFault({
			service: 'security',
			method: 'GET',
			path: '/threats',
			kind: 'status500',
			times: 1,
		});
		const failed = await ring(listener);
		expect(failed.status).toBe(503);
		await listener.waitForCalls(1);
		expect(listener.runs()).toHaveLength(0);
		const next = await ring(listener);
		expect(next.status).toBe(200);
		await listener.waitForCalls(2);
		expect(emittedIds(listener)).toEqual(['thr_28']);
	});

	it('refuses a body over 1 MiB with 413 before any request', async () => {
		const listener = await publish();
		const before = requestsTo(sandbox, 'security').length;
		const answer = await ring(listener, 'x'.repeat(1024 * 1024 + 1), 'text/plain');
		expect(answer.status).toBe(413);
		expect(requestsTo(sandbox, 'security')).toHaveLength(before);
	});
});
