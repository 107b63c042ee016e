import { randomUUID } from 'node:crypto';

import { beforeAll, describe, expect, it } from 'vitest';

import { PERFORMANCE_EVENT_TYPES as EVENT_TYPES } from '../../nodes/PerformanceService/transport/serviceValues.ts';
import { signPayload } from '../support/sandbox/index.mts';
import type { DeliveryRecord, WebhookEvent } from '../support/sandbox/index.mts';
import type { ExecutionDetail, N8nClient, StoredWorkflow } from '../support/n8n/client.mts';
import { CREDENTIAL_NAMES, PERFORMANCE_TRIGGER } from '../support/n8n/examples.mts';
import { waitFor } from '../support/n8n/processes.mts';
import { publishWebhookWorkflow } from '../support/n8n/webhooks.mts';
import { e2e, ownerClient } from './context.mts';
import { executionDetails, nodeOutput, waitForExecutions } from './executions.mts';
import { deliveries, emitEvent } from './sandboxControl.mts';

const TRIGGER_NAME = 'Every performance event';

let client: N8nClient;
let workflow: StoredWorkflow;
let webhookUrl: string;
let endpointId: string;

async function createAllEventsWorkflow(): Promise<StoredWorkflow> {
	return await client.createWorkflow({
		name: 'E2E: every performance event',
		nodes: [
			{
				name: TRIGGER_NAME,
				type: PERFORMANCE_TRIGGER,
				typeVersion: 1.1,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: { events: ['*'], options: {} },
				credentials: {
					performanceServiceApi: {
						id: e2e().credentialIds.performanceServiceApi,
						name: CREDENTIAL_NAMES.performanceServiceApi,
					},
				},
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	});
}

function triggerOutput(execution: ExecutionDetail): Array<Record<string, unknown>> {
	return nodeOutput(execution, TRIGGER_NAME);
}

async function startedEventIds(): Promise<unknown[]> {
	const executions = await executionDetails(client, await client.executions(workflow.id));
	return executions.flatMap((execution) => triggerOutput(execution).map((item) => item.id));
}

/** The headers the service sends with `body` on one attempt: each attempt is signed afresh. */
function signedHeaders(body: string, timestamp: number): Record<string, string> {
	const stamp = String(timestamp);
	return {
		'content-type': 'application/json',
		'x-service-webhook-timestamp': stamp,
		'x-service-webhook-signature': signPayload(e2e().sandbox.signingSecret, stamp, body),
	};
}

/** A delivery as the service would sign it, with a fresh event id. */
function signedDelivery(timestamp: number): {
	body: string;
	headers: Record<string, string>;
	eventId: string;
} {
	const eventId = `evt_manual_${randomUUID()}`;
	const body = JSON.stringify({
		id: eventId,
		type: 'audit.completed',
		createdAt: new Date().toISOString(),
		data: { siteId: 'site_1' },
	});
	return { eventId, body, headers: signedHeaders(body, timestamp) };
}

async function post(
	body: string,
	headers: Record<string, string>,
): Promise<{ status: number; json: unknown }> {
	const response = await fetch(webhookUrl, { method: 'POST', headers, body });
	const text = await response.text();
	return { status: response.status, json: text ? (JSON.parse(text) as unknown) : undefined };
}

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

beforeAll(async () => {
	client = ownerClient();
	workflow = await createAllEventsWorkflow();
	({ url: webhookUrl, endpointId } = await publishWebhookWorkflow(
		client,
		e2e().sandbox.controlUrl,
		workflow,
	));
});

describe('signed webhook deliveries to a published Performance Service Trigger', () => {
	it('starts one execution per event type with the delivered body, and the sandbox sees 2xx', async () => {
		const events: WebhookEvent[] = [];
		for (const type of EVENT_TYPES) events.push(await emitEvent(type));

		const ours = await waitFor('a delivery of every event', async () => {
			const records = (await deliveries()).filter((delivery) => delivery.endpointId === endpointId);
			const byEvent = events.map((event) =>
				records.find((record: DeliveryRecord) => record.eventId === event.id),
			);
			return byEvent.every((record) => record !== undefined)
				? (byEvent as DeliveryRecord[])
				: undefined;
		});
		expect(ours.map((delivery) => delivery.status)).toEqual(events.map(() => 200));

		await waitForExecutions(client, workflow.id, events.length);
		const executions = await executionDetails(client, await client.executions(workflow.id));
		for (const delivery of ours) {
			const started = executions.filter(
				(execution) => triggerOutput(execution)[0]?.id === delivery.eventId,
			);
			expect(started, delivery.type).toHaveLength(1);
			expect(started[0].status).toBe('success');
			expect(started[0].mode).toBe('webhook');
			expect(triggerOutput(started[0])).toEqual([JSON.parse(delivery.body)]);
		}
	});

	it('answers a tampered and a stale delivery 401 and starts nothing for them', async () => {
		const tampered = signedDelivery(nowSeconds());
		const tamperedAnswer = await post(tampered.body.replace('site_1', 'site_2'), tampered.headers);
		expect(tamperedAnswer.status).toBe(401);
		expect(tamperedAnswer.json).toEqual(expect.any(Object));

		const stale = signedDelivery(nowSeconds() - 3600);
		const staleAnswer = await post(stale.body, stale.headers);
		expect(staleAnswer.status).toBe(401);
		expect(staleAnswer.json).toEqual(expect.any(Object));

		// A good delivery after them: once its execution is there, any for the bad ones would be too.
		const good = signedDelivery(nowSeconds());
		expect((await post(good.body, good.headers)).status).toBe(200);
		const ids = await waitFor('the execution of the good delivery', async () => {
			const started = await startedEventIds();
			return started.includes(good.eventId) ? started : undefined;
		});
		expect(ids).not.toContain(tampered.eventId);
		expect(ids).not.toContain(stale.eventId);
	});

	it('verifies the exact bytes of a body n8n leaves unread (a content type it does not parse)', async () => {
		const event = signedDelivery(nowSeconds());
		const headers = { ...event.headers, 'content-type': 'application/octet-stream' };
		expect(await post(event.body, headers)).toEqual({ status: 200, json: { received: true } });
		const tampered = signedDelivery(nowSeconds());
		const tamperedHeaders = { ...tampered.headers, 'content-type': 'application/octet-stream' };
		expect((await post(`${tampered.body} `, tamperedHeaders)).status).toBe(401);
		const ids = await waitFor('the execution of the octet-stream delivery', async () => {
			const started = await startedEventIds();
			return started.includes(event.eventId) ? started : undefined;
		});
		expect(ids.filter((id) => id === event.eventId)).toHaveLength(1);
		expect(ids).not.toContain(tampered.eventId);
	});

	it('starts one execution for an event the service retries: n8n answers the first, the trigger the retries', async () => {
		const event = signedDelivery(nowSeconds());
		expect(await post(event.body, event.headers)).toEqual({
			status: 200,
			json: { received: true },
		});
		for (const offset of [1, 2, 3, 4]) {
			const retry = await post(event.body, signedHeaders(event.body, nowSeconds() + offset));
			expect(retry).toEqual({ status: 200, json: { received: true, duplicate: true } });
		}
		// The exact first delivery again (a replay) is a duplicate too.
		expect((await post(event.body, event.headers)).json).toEqual({
			received: true,
			duplicate: true,
		});

		const later = signedDelivery(nowSeconds());
		expect((await post(later.body, later.headers)).status).toBe(200);
		const ids = await waitFor('the execution of the later delivery', async () => {
			const started = await startedEventIds();
			return started.includes(later.eventId) ? started : undefined;
		});
		expect(ids.filter((id) => id === event.eventId)).toHaveLength(1);
	});
});
