import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ExecutionDetail, N8nClient, StoredWorkflow } from '../support/n8n/client.mts';
import { CREDENTIAL_NAMES, SECURITY_WEBHOOK_TRIGGER } from '../support/n8n/examples.mts';
import { waitFor } from '../support/n8n/processes.mts';
import { publishWebhookWorkflow } from '../support/n8n/webhooks.mts';
import { e2e, ownerClient } from './context.mts';
import { executionDetails, FINISHED, nodeOutput } from './executions.mts';
import { securityList } from './sandboxApi.mts';
import {
	addThreat,
	removeSecurityEndpoint,
	ringSecurity,
	securityDeliveries,
} from './sandboxControl.mts';

const TRIGGER_NAME = 'New threat, at once';

type Threat = Record<string, unknown> & { id: string };

let client: N8nClient;
let workflow: StoredWorkflow;
let webhookUrl: string;
let endpointId: string | undefined;
/** The threats listed when the workflow was published. */
let threatsAtPublish: Set<string>;

async function createThreatWorkflow(): Promise<StoredWorkflow> {
	return await client.createWorkflow({
		name: 'E2E: new threats at once',
		nodes: [
			{
				name: TRIGGER_NAME,
				type: SECURITY_WEBHOOK_TRIGGER,
				typeVersion: 1,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: { event: 'newThreat' },
				credentials: {
					securityServiceApi: {
						id: e2e().credentialIds.securityServiceApi,
						name: CREDENTIAL_NAMES.securityServiceApi,
					},
				},
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	});
}

const threats = async (): Promise<Threat[]> => await securityList<Threat>('/threats');

/** The workflow's executions with their data, oldest first. */
async function executions(): Promise<ExecutionDetail[]> {
	const found = await executionDetails(client, await client.executions(workflow.id));
	return found.sort((a, b) => Number(a.id) - Number(b.id));
}

const emitted = (execution: ExecutionDetail): Threat[] =>
	nodeOutput(execution, TRIGGER_NAME) as Threat[];

const emittedIds = (found: ExecutionDetail[]): string[] =>
	found.flatMap((execution) => emitted(execution).map((threat) => threat.id));

/** Waits until every execution has finished and the executions emitted each of `ids`. */
async function waitForEmitted(ids: string[], what: string): Promise<ExecutionDetail[]> {
	return await waitFor(
		what,
		async () => {
			const found = await executions();
			const done = found.every((execution) => FINISHED.has(execution.status));
			const all = emittedIds(found);
			return done && ids.every((id) => all.includes(id)) ? found : undefined;
		},
		{ intervalMs: 500, explain },
	);
}

/** What a failed wait shows: the executions, the calls to this workflow's URL, the trigger's memory. */
async function explain(): Promise<string> {
	const found = (await executions()).map((execution) => ({
		id: execution.id,
		mode: execution.mode,
		status: execution.status,
		emitted: emittedIds([execution]),
		error: execution.data?.resultData.error?.message,
	}));
	const calls = (await securityDeliveries())
		.filter((delivery) => delivery.url === webhookUrl)
		.map(({ body, status, attempt, error }) => ({ body, status, attempt, error }));
	const { staticData } = await client.getWorkflow(workflow.id);
	return JSON.stringify({ executions: found, calls, staticData }, null, 1);
}

/** Waits until the sandbox's calls about `threatIds` to this workflow's URL were answered. */
async function waitForRings(threatIds: string[]): Promise<number[]> {
	return await waitFor('the rings about the new threats to be answered', async () => {
		const ours = (await securityDeliveries()).filter(
			(delivery) =>
				delivery.endpointId === endpointId &&
				threatIds.some((id) => delivery.body.includes(`"${id}"`)),
		);
		return ours.length >= threatIds.length ? ours.map((delivery) => delivery.status) : undefined;
	});
}

async function post(url: string, body: string): Promise<{ status: number; text: string }> {
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body,
	});
	return { status: response.status, text: await response.text() };
}

/** A threat of its own, low so that the example workflows in the same n8n leave it alone. */
async function addLowThreat(title: string): Promise<Threat> {
	return await addThreat({ severity: 'low', title });
}

beforeAll(async () => {
	client = ownerClient();
	workflow = await createThreatWorkflow();
	threatsAtPublish = new Set((await threats()).map((threat) => threat.id));
	({ url: webhookUrl, endpointId } = await publishWebhookWorkflow(
		client,
		e2e().sandbox.controlUrl,
		workflow,
	));
});

afterAll(async () => {
	if (endpointId) await removeSecurityEndpoint(endpointId);
});

describe('the published Security Service Webhook Trigger, called by the security service', () => {
	it('starts one execution per new threat, each threat once, and none for the threats there at publishing', async () => {
		const first = await addLowThreat('E2E ring: first');
		const [one] = await waitForEmitted([first.id], 'the execution of the first threat');
		const second = await addLowThreat('E2E ring: second');
		await waitForEmitted([second.id], 'the execution of the second threat');
		// Three threats at once, each announced: the calls arrive together and share reads.
		const burst = (await ringSecurity({ count: 3 })).map((event) => String(event.data.threatId));
		const newIds = [first.id, second.id, ...burst];
		const found = await waitForEmitted(newIds, 'the executions of the burst');

		expect(await waitForRings(newIds)).toEqual(newIds.map(() => 200));
		expect(emittedIds(found).sort()).toEqual([...newIds].sort());
		expect(found.map((execution) => [execution.mode, execution.status])).toEqual(
			found.map(() => ['webhook', 'success']),
		);
		expect(emittedIds(found.slice(0, 2))).toEqual([first.id, second.id]);
		expect(found.length).toBeLessThanOrEqual(2 + burst.length);
		// The items are the records as the service lists them; the list holds nothing else that is new.
		const listed = await threats();
		expect(emitted(one)).toEqual([listed.find((threat) => threat.id === first.id)]);
		expect(
			listed
				.map((threat) => threat.id)
				.filter((id) => !threatsAtPublish.has(id))
				.sort(),
		).toEqual([...newIds].sort());
	});

	it('starts nothing for a forged call, and nothing of its content becomes an item', async () => {
		const before = await executions();
		const marker = `forged-${randomUUID()}`;
		const forged = JSON.stringify({
			id: `evt_${marker}`,
			event: 'threat.detected',
			createdAt: new Date().toISOString(),
			data: { threatId: `thr_${marker}`, siteId: 'st_1', severity: 'critical', title: marker },
		});
		expect(await post(webhookUrl, forged)).toEqual({
			status: 200,
			text: JSON.stringify({ received: true }),
		});

		// A real threat after it: once its execution is there, one for the forged call would be too.
		const real = await addLowThreat('E2E ring: after a forged call');
		const after = await waitForEmitted(
			[real.id],
			'the execution of the threat after the forged call',
		);
		const started = after.slice(before.length);
		expect(started.map(emitted)).toEqual([[expect.objectContaining({ id: real.id })]]);
		expect(JSON.stringify(after)).not.toContain(marker);
	});

	it('runs once with the newest threat for a call to the test URL while "Listen for test event" waits', async () => {
		const production = await executions();
		const listen = await client.rest<{ waitingForWebhook?: boolean }>(
			'POST',
			`/rest/workflows/${workflow.id}/run`,
			{ triggerToStartFrom: { name: TRIGGER_NAME } },
		);
		expect(listen.waitingForWebhook).toBe(true);
		const testUrl = webhookUrl.replace('/webhook/', '/webhook-test/');
		const answer = await post(testUrl, '');
		expect(answer.status).toBe(200);

		const manual = await waitFor('the test run', async () => {
			const found = await executions();
			const run = found.find((execution) => execution.mode === 'manual');
			return run && FINISHED.has(run.status) ? run : undefined;
		});
		const listed = await threats();
		const newest = listed.reduce((a, b) => (String(b.detectedAt) > String(a.detectedAt) ? b : a));
		expect(manual.status).toBe('success');
		expect(emitted(manual)).toEqual([newest]);
		const after = await executions();
		expect(after.filter((execution) => execution.mode !== 'manual')).toEqual(production);
	});

	it('reads the list for a call whose body is invalid JSON sent as application/json', async () => {
		// The service no longer calls this URL: only the invalid call below can emit the threat.
		await removeSecurityEndpoint(endpointId!);
		endpointId = undefined;
		const unrung = await addLowThreat('E2E ring: found by an invalid call');

		const answer = await post(webhookUrl, '{"id": "evt_cut off');
		expect(answer, 'n8n parsed the body of a version-1 node with options.binaryData').toEqual({
			status: 200,
			text: expect.any(String) as unknown,
		});
		const found = await waitForEmitted([unrung.id], 'the execution of the invalid call');
		expect(emitted(found.at(-1)!)).toEqual([expect.objectContaining({ id: unrung.id })]);
	});
});
