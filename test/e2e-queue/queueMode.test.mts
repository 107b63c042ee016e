import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { StoredWorkflow } from '../support/n8n/client.mts';
import {
	postDelivery,
	signDelivery,
	signedDelivery,
	tampered,
} from '../support/n8n/deliveries.mts';
import { PERFORMANCE_TRIGGER } from '../support/n8n/examples.mts';
import {
	deliveredEventIds,
	expectActionNodesRan,
	expectEachNewThreatOnce,
	runActionNodes,
	runPollerOnce,
	waitForEventExecution,
} from '../support/n8n/realChecks.mts';
import type { PollerResult } from '../support/n8n/realChecks.mts';
import {
	actionNodesWorkflow,
	deliveryTriggerWorkflow,
	threatPollerWorkflow,
} from '../support/n8n/testWorkflows.mts';
import {
	nodeDescription,
	performanceTriggerNode,
	productionWebhookUrl,
	waitForWebhook,
} from '../support/n8n/webhooks.mts';
import { startQueueCluster } from './cluster.mts';
import type { QueueCluster } from './cluster.mts';

let cluster: QueueCluster;
let actions: StoredWorkflow & { path: string };
let trigger: StoredWorkflow;
let poller: StoredWorkflow;
let pollerRun: Promise<PollerResult>;
/** The trigger's production URL on main and on each webhook process (the same path everywhere). */
let triggerUrls: { main: string; webhooks: string[] };

function saysDuplicate(text: string): boolean {
	try {
		const body = JSON.parse(text) as unknown;
		return (
			typeof body === 'object' && body !== null && 'duplicate' in body && body.duplicate === true
		);
	} catch {
		return false;
	}
}

function secret(): string {
	return cluster.sandbox.signingSecret;
}

async function publishedOnEveryProcess(path: (origin: string) => string): Promise<void> {
	for (const instance of [cluster.main, ...cluster.webhooks])
		await waitForWebhook(path(instance.origin));
}

beforeAll(async () => {
	cluster = await startQueueCluster();
	const { client, credentialIds } = cluster;
	// The poller first: its first poll only records the threats that exist; runPollerOnce adds new ones after it.
	poller = await client.createWorkflow(threatPollerWorkflow(credentialIds));
	await client.publishWorkflow(poller.id);
	// Polls come once a minute: the poller's check runs while the other tests do, and its test awaits it.
	pollerRun = runPollerOnce(client, cluster.sandbox, poller.id, Date.now());
	pollerRun.catch(() => undefined);

	const definition = actionNodesWorkflow(credentialIds);
	actions = { ...(await client.createWorkflow(definition)), path: definition.path };
	await client.publishWorkflow(actions.id);
	trigger = await client.createWorkflow(deliveryTriggerWorkflow(credentialIds));
	await client.publishWorkflow(trigger.id);

	const description = await nodeDescription(client, PERFORMANCE_TRIGGER);
	const triggerNode = performanceTriggerNode(trigger);
	const urlOn = (origin: string): string => productionWebhookUrl(origin, triggerNode, description);
	triggerUrls = {
		main: urlOn(cluster.main.origin),
		webhooks: cluster.webhooks.map((instance) => urlOn(instance.origin)),
	};
	await publishedOnEveryProcess(urlOn);
}, 900_000);

afterAll(async () => {
	await cluster?.stop();
}, 120_000);

describe('n8n 2.x in queue mode (Postgres, Redis, main, worker, two webhook processes)', () => {
	it('runs one operation of each action node on the worker', async () => {
		const url = `${cluster.webhooks[0].origin}/webhook/${actions.path}`;
		const run = await runActionNodes(cluster.client, cluster.sandbox, actions.id, url);
		expectActionNodesRan(run);
		expect(cluster.workerLog()).toContain(`Worker started execution ${run.executions[0].id} `);
	});

	it('starts an execution on the worker for a signed delivery to either webhook process, and answers tampered ones 401', async () => {
		const signed = triggerUrls.webhooks.map(() => signedDelivery(secret()));
		const forged = triggerUrls.webhooks.map(() => tampered(signedDelivery(secret())));
		for (const [index, url] of triggerUrls.webhooks.entries()) {
			expect((await postDelivery(url, forged[index])).status).toBe(401);
			expect((await postDelivery(url, signed[index])).status).toBe(200);
		}
		for (const delivery of signed)
			await waitForEventExecution(cluster.client, trigger.id, delivery.eventId);

		const ids = await deliveredEventIds(cluster.client, trigger.id);
		expect(ids.filter((id) => signed.some((delivery) => delivery.eventId === id))).toHaveLength(
			signed.length,
		);
		for (const delivery of forged) expect(ids).not.toContain(delivery.eventId);
		const executions = await cluster.client.executions(trigger.id);
		for (const execution of executions)
			expect(cluster.workerLog()).toContain(`Worker started execution ${execution.id} `);
	});

	it('starts exactly one execution for one event delivered to main, to both webhook processes, and again after restarting them', async () => {
		const event = signedDelivery(secret());
		// Each attempt is signed afresh, as the service signs its retries.
		const deliverEverywhere = async (
			urls: string[],
		): Promise<Array<{ status: number; text: string }>> => {
			const answers: Array<{ status: number; text: string }> = [];
			for (const url of urls)
				answers.push(
					await postDelivery(url, {
						body: event.body,
						headers: signDelivery(secret(), event.body),
					}),
				);
			return answers;
		};
		const first = await deliverEverywhere([triggerUrls.main, ...triggerUrls.webhooks]);
		await cluster.restartWebhooks();
		for (const url of triggerUrls.webhooks) await waitForWebhook(url);
		const answers = [...first, ...(await deliverEverywhere(triggerUrls.webhooks))];
		// Accepted and duplicate deliveries are both answered 2xx (the service must not retry either);
		// every repeat says it was a duplicate.
		for (const { status } of answers) expect(status).toBeGreaterThanOrEqual(200);
		for (const { status } of answers) expect(status).toBeLessThan(300);
		expect(answers.filter(({ text }) => saysDuplicate(text))).toHaveLength(answers.length - 1);
		expect(saysDuplicate(answers[0].text)).toBe(false);

		// A later, distinct event: once its execution is listed, any execution of the repeats would be too.
		const marker = signedDelivery(secret());
		expect((await postDelivery(triggerUrls.webhooks[1], marker)).status).toBe(200);
		const ids = await waitForEventExecution(cluster.client, trigger.id, marker.eventId);
		expect(ids.filter((id) => id === event.eventId)).toHaveLength(1);
	});

	it('emits each new threat once from the poller, run on the worker', async () => {
		const result = await pollerRun;
		expectEachNewThreatOnce(result);
		for (const id of result.executionIds)
			expect(cluster.workerLog()).toContain(`Worker started execution ${id} `);
	});
});
