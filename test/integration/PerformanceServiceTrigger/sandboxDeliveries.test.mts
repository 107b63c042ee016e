import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { afterEach, describe, expect, it } from 'vitest';

import { PERFORMANCE_EVENT_TYPES as EVENT_TYPES } from '../../../nodes/PerformanceService/transport/serviceValues.ts';
import { validateJson, type JsonSchema } from '../../support/harness/jsonSchema.mts';
import { packageNode } from '../../support/harness/runWorkflow.mts';
import { startWebhookListener, type WebhookListener } from '../../support/harness/runWebhook.mts';
import { sandboxCredentials, withSandbox } from '../../support/harness/sandbox.mts';
import { PACKAGE_ROOT } from '../../support/n8n/paths.mts';
import type { DeliveryRecord } from '../../support/sandbox/index.mts';

const TRIGGER = 'Performance Service Trigger';
const NEW_SECRET = 'whsec_rotated_6e0b94c2d1aa';
const SCHEMA_DIR = path.join(PACKAGE_ROOT, 'nodes/PerformanceService/__schema__');

function schema(relativePath: string): JsonSchema {
	return JSON.parse(readFileSync(path.join(SCHEMA_DIR, relativePath), 'utf8')) as JsonSchema;
}

const sandbox = withSandbox({ webhookBackoffMs: 20, queueDelayMs: 200 });
const listeners: WebhookListener[] = [];

afterEach(async () => {
	await Promise.all(listeners.splice(0).map((listener) => listener.close()));
});

async function listen(
	parameters: INodeParameters = {},
	secrets: IDataObject = {},
): Promise<WebhookListener> {
	const trigger = packageNode('performanceServiceTrigger', parameters, {
		name: TRIGGER,
		credentials: ['performanceServiceApi'],
	});
	const listener = await startWebhookListener({
		workflow: { nodes: [trigger], connections: {} },
		credentials: {
			performanceServiceApi: {
				...sandboxCredentials(sandbox).performanceServiceApi,
				apiToken: sandbox.tokens.readOnly,
				...secrets,
			},
		},
	});
	listeners.push(listener);
	return listener;
}

function startedItems(listener: WebhookListener): IDataObject[] {
	return listener.runs().flatMap((run) => run.output(TRIGGER).map((item) => item.json));
}

function accepted(deliveries: DeliveryRecord[]): DeliveryRecord[] {
	return deliveries.filter((delivery) => delivery.status === 200);
}

describe('Performance Service Trigger with the sandbox delivering', () => {
	it('starts one run per delivery for all six event types, answered once each execution is recorded', async () => {
		const listener = await listen();
		sandbox.addWebhookEndpoint(listener.url);
		for (const type of EVENT_TYPES) sandbox.emit(type);

		const deliveries = await sandbox.waitForDeliveries(
			(all) => accepted(all).length === EVENT_TYPES.length,
		);
		const calls = await listener.waitForCalls(EVENT_TYPES.length);
		expect(deliveries.map((delivery) => delivery.attempt)).toEqual(EVENT_TYPES.map(() => 1));
		expect(
			calls.map((call) => [
				call.answeredByNode,
				call.executionRecordedBeforeAnswer,
				call.run?.run.status,
			]),
		).toEqual(EVENT_TYPES.map(() => [false, true, 'success']));

		const items = startedItems(listener);
		expect(items.map((item) => item.type).sort()).toEqual([...EVENT_TYPES].sort());
		for (const delivery of deliveries) {
			expect(items).toContainEqual(JSON.parse(delivery.body));
		}
	});

	it('emits payloads that match the output schemas, also in a real reoptimization', async () => {
		const listener = await listen();
		sandbox.addWebhookEndpoint(listener.url);
		for (const type of EVENT_TYPES) sandbox.emit(type);
		const response = await fetch(`${sandbox.performanceUrl}/sites/site_3/reoptimize`, {
			method: 'POST',
			headers: { authorization: `Bearer ${sandbox.tokens.readWrite}` },
		});
		expect(response.status).toBe(200);

		const deliveries = await sandbox.waitForDeliveries(
			(all) => accepted(all).filter((delivery) => delivery.type === 'alert.resolved').length === 2,
		);
		await listener.waitForCalls(deliveries.length);
		const combined = schema('v1.1.0.json');
		const types = new Set<string>();
		for (const item of startedItems(listener)) {
			const type = String(item.type);
			types.add(type);
			expect(validateJson(schema(`v1.1.0/event/${type}.json`), item), type).toEqual([]);
			expect(validateJson(combined, item), type).toEqual([]);
		}
		expect([...types].sort()).toEqual([...EVENT_TYPES].sort());
	});

	it('answers 401 to deliveries signed with another secret: retried, never started', async () => {
		const listener = await listen();
		sandbox.addWebhookEndpoint(listener.url, { secret: 'whsec_not_the_one_on_the_credential' });
		sandbox.emit('alert.opened');

		const deliveries = await sandbox.waitForDeliveries((all) => all.length === 5);
		expect(deliveries.map((delivery) => [delivery.attempt, delivery.status])).toEqual([
			[1, 401],
			[2, 401],
			[3, 401],
			[4, 401],
			[5, 401],
		]);
		await listener.waitForCalls(5);
		expect(listener.runs()).toEqual([]);
	});

	it('accepts the old secret and the new one during a rotation', async () => {
		// One event to two endpoints: with duplicates checked, the second would be answered as one.
		const listener = await listen(
			{ options: { includeDeliveryHeaders: true, duplicateWindowHours: 0 } },
			{ webhookSigningSecret: NEW_SECRET, previousWebhookSigningSecret: sandbox.signingSecret },
		);
		sandbox.addWebhookEndpoint(listener.url);
		sandbox.addWebhookEndpoint(listener.url, { secret: NEW_SECRET });
		sandbox.emit('audit.regression');

		await sandbox.waitForDeliveries((all) => accepted(all).length === 2);
		await listener.waitForCalls(2);
		const signedWith = startedItems(listener).map(
			(item) => (item._delivery as IDataObject).signedWith,
		);
		expect(signedWith.sort()).toEqual(['current', 'previous']);
	});

	it('starts only for the selected event types and acknowledges the others', async () => {
		const listener = await listen({ events: ['alert.opened'] });
		sandbox.addWebhookEndpoint(listener.url);
		for (const type of EVENT_TYPES) sandbox.emit(type);

		const deliveries = await sandbox.waitForDeliveries((all) => all.length === EVENT_TYPES.length);
		expect(deliveries.every((delivery) => delivery.status === 200 && delivery.attempt === 1)).toBe(
			true,
		);
		await listener.waitForCalls(EVENT_TYPES.length);
		expect(startedItems(listener).map((item) => item.type)).toEqual(['alert.opened']);
		expect(sandbox.endpoints()[0]).toMatchObject({ consecutiveFailures: 0, paused: false });
	});
});
