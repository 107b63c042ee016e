import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { FINISHED } from '../e2e/executions.mts';
import type {
	ExecutionSummary,
	NodeTypeDescription,
	StoredWorkflow,
} from '../support/n8n/client.mts';
import {
	postDelivery,
	signDelivery,
	signedDelivery,
	tampered,
} from '../support/n8n/deliveries.mts';
import {
	CREDENTIAL_NAMES,
	PERFORMANCE_TRIGGER,
	SECURITY_WEBHOOK_TRIGGER,
} from '../support/n8n/examples.mts';
import type { ProxiedRequest } from '../support/n8n/nginx.mts';
import { ARTIFACTS_DIR } from '../support/n8n/paths.mts';
import { waitFor } from '../support/n8n/processes.mts';
import {
	deliveredEventIds,
	executionLines,
	expectActionNodesRan,
	expectEachNewThreatOnce,
	expectStatusChangeOnce,
	runActionNodes,
	runPollerOnce,
	runStatusPollerOnce,
	waitForEventExecution,
} from '../support/n8n/realChecks.mts';
import type { PollerResult, StatusPollerResult } from '../support/n8n/realChecks.mts';
import {
	actionNodesWorkflow,
	deliveryTriggerWorkflow,
	RING_READER,
	RING_TRIGGER_NODE,
	siteStatusPollerWorkflow,
	threatPollerWorkflow,
	threatWebhookTriggerWorkflow,
} from '../support/n8n/testWorkflows.mts';
import {
	nodeDescription,
	performanceTriggerNode,
	productionWebhookUrl,
	waitForWebhook,
} from '../support/n8n/webhooks.mts';
import { sandboxCredentials } from '../support/sandbox/index.mts';
import {
	acknowledged,
	deliverAsService,
	executionsPerEvent,
	retried,
	ringAtOnce,
	saysDuplicate,
} from './bursts.mts';
import type { Outcome } from './bursts.mts';
import { startQueueCluster } from './cluster.mts';
import type { QueueCluster } from './cluster.mts';

/** Deliveries of each burst through nginx, and how many the service keeps in flight. */
const BURST = 100;
const BURST_IN_FLIGHT = 20;
/** The last events of a burst, sent again: where two processes' saves of the static data race. */
const RESENT = 20;
/** The burst during which the webhook process that owns the trigger's path is killed, at its middle. */
const KILL_BURST = 100;
const KILL_IN_FLIGHT = 10;
/** Calls of the Security Service Webhook Trigger sent at once in each of its two bursts, and the threats added before each. */
const RINGS = 40;
const NEW_THREATS = 5;
/** What the tests measured, written to test-artifacts/ for the report. */
const FIGURES_FILE = path.join(ARTIFACTS_DIR, 'e2e-queue-figures.json');

let cluster: QueueCluster;
let actions: StoredWorkflow & { path: string };
let trigger: StoredWorkflow;
let poller: StoredWorkflow;
let pollerRun: Promise<PollerResult>;
let statusPoller: StoredWorkflow;
let statusPollerRun: Promise<StatusPollerResult>;
/** The trigger's production URL on main and on each webhook process (the same path everywhere). */
let triggerUrls: { main: string; webhooks: string[] };
let triggerDescription: NodeTypeDescription;
const figures: Record<string, unknown> = {};

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
	// The status poller reads the site list with a token of its own (the action nodes read it too).
	const pollerToken = cluster.sandbox.tokens.readOnly;
	const pollerCredential = await client.createCredential(
		CREDENTIAL_NAMES.performanceServiceApi,
		'performanceServiceApi',
		{ ...sandboxCredentials(cluster.sandbox).performanceServiceApi, apiToken: pollerToken },
	);
	statusPoller = await client.createWorkflow(
		siteStatusPollerWorkflow({ ...credentialIds, performanceServiceApi: pollerCredential }),
	);
	await client.publishWorkflow(statusPoller.id);
	statusPollerRun = runStatusPollerOnce(client, cluster.sandbox, statusPoller.id, pollerToken);
	statusPollerRun.catch(() => undefined);

	const definition = actionNodesWorkflow(credentialIds);
	actions = { ...(await client.createWorkflow(definition)), path: definition.path };
	await client.publishWorkflow(actions.id);
	trigger = await client.createWorkflow(deliveryTriggerWorkflow(credentialIds));
	await client.publishWorkflow(trigger.id);

	triggerDescription = await nodeDescription(client, PERFORMANCE_TRIGGER);
	const triggerNode = performanceTriggerNode(trigger);
	const urlOn = (origin: string): string =>
		productionWebhookUrl(origin, triggerNode, triggerDescription);
	triggerUrls = {
		main: urlOn(cluster.main.origin),
		webhooks: cluster.webhooks.map((instance) => urlOn(instance.origin)),
	};
	await publishedOnEveryProcess(urlOn);
}, 900_000);

afterAll(async () => {
	await cluster?.stop();
	mkdirSync(ARTIFACTS_DIR, { recursive: true });
	writeFileSync(
		FIGURES_FILE,
		`${JSON.stringify({ at: new Date().toISOString(), ...figures }, null, 2)}\n`,
	);
}, 120_000);

/** A new delivery trigger workflow, published, and its production URL through nginx. */
async function publishedTriggerBehindNginx(): Promise<{ workflow: StoredWorkflow; url: string }> {
	const workflow = await cluster.client.createWorkflow(
		deliveryTriggerWorkflow(cluster.credentialIds),
	);
	await cluster.client.publishWorkflow(workflow.id);
	const url = productionWebhookUrl(
		cluster.proxy.origin,
		performanceTriggerNode(workflow),
		triggerDescription,
	);
	await waitForWebhook(url);
	return { workflow, url };
}

/** The requests for `url`'s path among those nginx answered (all so far when left out). */
function requestsFor(url: string, requests = cluster.proxy.requests()): ProxiedRequest[] {
	const { pathname } = new URL(url);
	return requests.filter((request) => request.uri === pathname);
}

/** Each event's executions, in the order of `outcomes`. */
function executionCounts(outcomes: Outcome[], counts: Map<unknown, number>): number[] {
	return outcomes.map(({ eventId }) => counts.get(eventId) ?? 0);
}

const count = (outcomes: Outcome[], test: (outcome: Outcome) => boolean): number =>
	outcomes.filter(test).length;

describe('n8n 2.x in queue mode (Postgres, Redis, main, worker, two webhook processes behind nginx)', () => {
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
		const seen = async () =>
			[
				`event ${event.eventId}, answers ${JSON.stringify(answers)}`,
				`workflow ${trigger.id}; ${await executionLines(cluster.client)}`,
				`main:\n${cluster.main.logTail(12)}`,
			].join('\n');
		const executionsOfEvent = ids.filter((id) => id === event.eventId).length;
		expect(executionsOfEvent, executionsOfEvent === 1 ? '' : await seen()).toBe(1);
	});

	it('through nginx (each webhook path to one webhook process), starts each event of a burst once, and none of its last 20 again when they are resent', async () => {
		const { workflow, url } = await publishedTriggerBehindNginx();
		const events = Array.from({ length: BURST }, () => signedDelivery(secret()));
		const burst = await deliverAsService(url, secret(), events, { inFlight: BURST_IN_FLIGHT });
		const resent = await deliverAsService(url, secret(), events.slice(-RESENT), {
			inFlight: RESENT,
		});
		const { counts } = await executionsPerEvent(cluster.client, workflow.id, BURST);
		const perEvent = executionCounts(burst, counts);
		figures.burst = {
			deliveries: BURST,
			inFlight: BURST_IN_FLIGHT,
			acknowledged: count(burst, acknowledged),
			retried: count(burst, retried),
			executions: [...counts.values()].reduce((sum, each) => sum + each, 0),
			resent: RESENT,
			resentAcknowledged: count(resent, acknowledged),
			resentDuplicateAnswers: count(resent, (outcome) => saysDuplicate(outcome.text)),
			secondExecutions: perEvent.filter((each) => each > 1).length,
		};

		expect(count(burst, acknowledged)).toBe(BURST);
		expect(count(resent, (outcome) => acknowledged(outcome) && saysDuplicate(outcome.text))).toBe(
			RESENT,
		);
		expect(perEvent).toEqual(burst.map(() => 1));
		expect(counts.size).toBe(BURST);
		// One webhook process took every request of the path: only it saved the trigger's static data.
		const ports = new Set(requestsFor(url).flatMap((request) => request.upstreamPorts));
		expect(ports.size).toBe(1);
	});

	it('emits each new threat once from the poller, run on the worker', async () => {
		const result = await pollerRun;
		expectEachNewThreatOnce(result);
		for (const id of result.executionIds)
			expect(cluster.workerLog()).toContain(`Worker started execution ${id} `);
	});

	it('emits each threat added after publishing once from the Security Service Webhook Trigger, through two bursts of calls at once through nginx', async () => {
		// After the poller's check, which counts every new threat; before the kill, so both webhook processes run.
		await pollerRun.catch(() => undefined);
		const { client, sandbox } = cluster;
		const workflow = await client.createWorkflow(
			threatWebhookTriggerWorkflow(cluster.credentialIds),
		);
		await client.publishWorkflow(workflow.id);
		const node = workflow.nodes.find(({ name }) => name === RING_TRIGGER_NODE);
		if (!node) throw new Error(`Workflow "${workflow.name}" has no ${RING_TRIGGER_NODE}`);
		const description = await nodeDescription(client, SECURITY_WEBHOOK_TRIGGER);
		const url = productionWebhookUrl(cluster.proxy.origin, node, description);
		await waitForWebhook(url);
		const listReads = (since: number): number =>
			sandbox.requests.filter(
				(request) =>
					request.service === 'security' &&
					request.path === '/threats' &&
					request.query[RING_READER.name] === RING_READER.value &&
					request.at >= since,
			).length;
		// Publishing read the list: the threats it held are never to be emitted.
		const publishReads = listReads(0);
		expect(publishReads).toBeGreaterThan(0);

		const added: unknown[] = [];
		const bursts: Array<Record<string, unknown>> = [];
		figures.rings = { publishReads, bursts };
		let executions: ExecutionSummary[] = [];
		for (let burst = 0; burst < 2; burst++) {
			const since = Date.now();
			for (let threat = 0; threat < NEW_THREATS; threat++) added.push(sandbox.addThreat().id);
			const statuses = await ringAtOnce(url, RINGS);
			// A 2xx means n8n recorded the execution it started: all exist once every call is answered.
			const before = executions.length;
			const emitted = await waitFor(
				`the ${added.length} new threats emitted`,
				async () => {
					executions = await client.executions(workflow.id);
					if (!executions.every(({ status }) => FINISHED.has(status))) return undefined;
					const ids = await deliveredEventIds(client, workflow.id, RING_TRIGGER_NODE);
					return added.every((id) => ids.includes(id)) ? ids : undefined;
				},
				{ intervalMs: 500, explain: () => executionLines(client, workflow.id) },
			);
			bursts.push({
				rings: RINGS,
				newThreats: NEW_THREATS,
				answered2xx: statuses.filter((status) => status >= 200 && status < 300).length,
				otherAnswers: statuses.filter((status) => status < 200 || status >= 300),
				executions: executions.length - before,
				listReads: listReads(since),
			});
			expect(statuses).toEqual(statuses.map(() => 200));
			expect(emitted.toSorted()).toEqual(added.toSorted());
		}
		// One webhook process took every call of the path; the worker ran what it started.
		const ports = new Set(requestsFor(url).flatMap((request) => request.upstreamPorts));
		expect(ports.size).toBe(1);
		for (const { id } of executions)
			expect(cluster.workerLog()).toContain(`Worker started execution ${id} `);
	});

	it('moves the path of the webhook process killed mid-burst to the other one: nothing acknowledged is lost or starts twice, every failed delivery gets a 2xx when retried', async () => {
		const { workflow, url } = await publishedTriggerBehindNginx();
		// The owner: the process nginx passed waitForWebhook's probe to.
		const [ownerPort] = requestsFor(url).at(-1)?.upstreamPorts ?? [];
		const owner = cluster.webhooks.find((instance) => instance.port === ownerPort);
		const other = cluster.webhooks.find((instance) => instance.port !== ownerPort);
		if (!owner || !other) throw new Error(`No webhook process on port ${ownerPort} took ${url}`);
		const events = Array.from({ length: KILL_BURST }, () => signedDelivery(secret()));
		let requestsBeforeKill = -1;
		const burst = await deliverAsService(url, secret(), events, {
			inFlight: KILL_IN_FLIGHT,
			onAcknowledged: (acknowledgedSoFar) => {
				if (acknowledgedSoFar !== KILL_BURST / 2) return;
				owner.kill();
				requestsBeforeKill = cluster.proxy.requests().length;
			},
		});
		const { counts, leftBehind } = await executionsPerEvent(
			cluster.client,
			workflow.id,
			KILL_BURST,
		);
		const perEvent = executionCounts(burst, counts);
		const proxied = cluster.proxy.requests();
		const beforeKill = requestsFor(url, proxied.slice(0, requestsBeforeKill));
		const afterKill = requestsFor(url, proxied.slice(requestsBeforeKill));
		const sentOnce = burst.flatMap((outcome, index) => (retried(outcome) ? [] : [perEvent[index]]));
		const sentAgain = burst.flatMap((outcome, index) =>
			retried(outcome) ? [perEvent[index]] : [],
		);
		figures.kill = {
			deliveries: KILL_BURST,
			inFlight: KILL_IN_FLIGHT,
			killedAfterAcknowledged: KILL_BURST / 2,
			acknowledged: count(burst, acknowledged),
			acknowledgedFirstTime: sentOnce.length,
			retried: sentAgain.length,
			failedAnswersAfterKill: afterKill.filter(({ status }) => status < 200 || status >= 300)
				.length,
			executions: perEvent.reduce((sum, each) => sum + each, 0),
			leftBehindByTheKilledProcess: leftBehind,
			missing: perEvent.filter((each) => each === 0).length,
			acknowledgedFirstTimeStartedTwice: sentOnce.filter((each) => each > 1).length,
			retriedStartedTwice: sentAgain.filter((each) => each > 1).length,
		};

		// Before the kill the owner took every request of the path; after it, the other process answered every 2xx.
		expect(requestsBeforeKill).toBeGreaterThan(0);
		expect(new Set(beforeKill.flatMap((request) => request.upstreamPorts))).toEqual(
			new Set([owner.port]),
		);
		const answeredAfterKill = afterKill.filter(({ status }) => status >= 200 && status < 300);
		expect(answeredAfterKill.length).toBeGreaterThan(0);
		// nginx logs a request when its answer ends: the owner's last answers, sent just before the
		// kill, can be logged just after the snapshot (at most the KILL_IN_FLIGHT then in flight).
		for (const request of answeredAfterKill.slice(KILL_IN_FLIGHT))
			expect(request.upstreamPorts.at(-1)).toBe(other.port);
		// The kill failed the deliveries in flight at the owner; the service's retries got each a 2xx.
		expect(sentAgain.length).toBeGreaterThan(0);
		expect(count(burst, acknowledged)).toBe(KILL_BURST);
		// Executions the killed process created but never queued can only be of deliveries it was answering.
		expect(leftBehind).toBeLessThanOrEqual(KILL_IN_FLIGHT);
		expect(counts.size).toBe(KILL_BURST);
		// Every event the service got a 2xx for the first time started exactly once, before and after the kill.
		expect(sentOnce).toEqual(sentOnce.map(() => 1));
		// A delivery the killed process was answering may have been recorded before it died, without its
		// static data saved or its 2xx sent (n8n records, saves, then answers): its retry then starts it
		// again at the other process, as after any crash (docs/design.md). Never lost, never a third time.
		for (const executions of sentAgain) expect([1, 2]).toContain(executions);
	});

	it('emits a site status change once from the Performance Service Poll Trigger, its execution run on the worker', async () => {
		const result = await statusPollerRun;
		expectStatusChangeOnce(result);
		for (const id of result.executionIds)
			expect(cluster.workerLog()).toContain(`Worker started execution ${id} `);
		figures.statusPoller = {
			executions: result.executionIdsAfterAnotherPoll.length,
			emitted: result.emitted.length,
		};
	});
});
