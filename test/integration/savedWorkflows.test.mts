import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { IConnections, IDataObject, INode } from 'n8n-workflow';
import { afterEach, describe, expect, it } from 'vitest';

import { runPoll } from '../support/harness/runPoll.mts';
import { runWorkflow, type TestWorkflow } from '../support/harness/runWorkflow.mts';
import { startWebhookListener, type WebhookListener } from '../support/harness/runWebhook.mts';
import {
	callsTo,
	requestsTo,
	sandboxCredentials,
	serviceAnswer,
	withSandbox,
} from '../support/harness/sandbox.mts';
import { START_NODE_TYPE } from '../support/harness/testNodes.mts';
import { PACKAGE_NAME, PACKAGE_ROOT } from '../support/n8n/paths.mts';
import { SIMPLE_SITE_KEYS } from './PerformanceService/performanceNode.mts';

/**
 * Workflows saved with the versions the nodes ship, in the format n8n exports them (parameters at
 * their defaults left out; test/fixtures/savedWorkflows/), run unchanged: the type names,
 * versions, parameters and credential types they hold must keep working.
 */

const FIXTURES = path.join(PACKAGE_ROOT, 'test/fixtures/savedWorkflows');
const MANUAL_TRIGGER = 'n8n-nodes-base.manualTrigger';

interface SavedWorkflow {
	name: string;
	nodes: INode[];
	connections: IConnections;
}

function loadFixture(file: string): SavedWorkflow {
	return JSON.parse(readFileSync(path.join(FIXTURES, file), 'utf8')) as SavedWorkflow;
}

/**
 * The saved workflow as the harness runs it: n8n's Manual Trigger (n8n-nodes-base is not
 * installed) becomes the harness's start node; the package's nodes keep their saved type, whose
 * prefix must be the package name n8n registers them under.
 */
function runnable(saved: SavedWorkflow): TestWorkflow {
	const nodes = saved.nodes.map((node) => {
		if (node.type === MANUAL_TRIGGER) return { ...node, type: START_NODE_TYPE };
		expect(node.type.startsWith(`${PACKAGE_NAME}.`), node.type).toBe(true);
		return node;
	});
	return { nodes, connections: saved.connections };
}

/** The nodes of the package in a saved workflow. */
function packageNodesOf(saved: SavedWorkflow): INode[] {
	return saved.nodes.filter((candidate) => candidate.type.startsWith(`${PACKAGE_NAME}.`));
}

/** The one node of the package in a saved workflow. */
function packageNodeOf(saved: SavedWorkflow): INode {
	const [node, ...others] = packageNodesOf(saved);
	expect(others).toEqual([]);
	return node;
}

const sandbox = withSandbox({ webhookBackoffMs: 20, queueDelayMs: 200 });
const listeners: WebhookListener[] = [];

afterEach(async () => {
	await Promise.all(listeners.splice(0).map((listener) => listener.close()));
});

describe('saved workflows run unchanged', () => {
	it('Performance Service, Site → Get Many (limit 2) → Site → Get of each (defaults left out)', async () => {
		const saved = loadFixture('performanceService.json');
		const [getMany, get] = packageNodesOf(saved);
		for (const node of [getMany, get])
			expect(node).toMatchObject({ type: `${PACKAGE_NAME}.performanceService`, typeVersion: 2 });
		expect(getMany.parameters).toEqual({ limit: 2 });
		expect(get.parameters).toMatchObject({ operation: 'get' });

		const run = await runWorkflow(runnable(saved), { credentials: sandboxCredentials(sandbox) });

		expect(run.run.status).toBe('success');
		const listed = run.output(getMany.name).map((item) => item.json);
		expect(listed.map((site) => site.id)).toEqual(['site_1', 'site_2']);
		// Simplify is on by default for Get Many, off for Get.
		expect(Object.keys(listed[0])).toEqual(SIMPLE_SITE_KEYS);
		expect(run.output(get.name).map((item) => item.json)).toEqual([
			await serviceAnswer(sandbox, 'performance', '/sites/site_1'),
			await serviceAnswer(sandbox, 'performance', '/sites/site_2'),
		]);
		expect(callsTo(sandbox, 'performance')).toEqual(
			['/sites', '/sites/site_1', '/sites/site_2'].map((path) => ({
				method: 'GET',
				path,
				query: {},
				auth: `Bearer ${sandbox.tokens.readWrite}`,
			})),
		);
	});

	it('Security Service, Threat → Get Many (limit 5, a query parameter, defaults left out)', async () => {
		const saved = loadFixture('securityService.json');
		const node = packageNodeOf(saved);
		expect(node).toMatchObject({ type: `${PACKAGE_NAME}.securityService`, typeVersion: 1 });
		const { threats: open } = (await serviceAnswer(
			sandbox,
			'security',
			'/threats?status=open',
		)) as { threats: IDataObject[] };

		const run = await runWorkflow(runnable(saved), { credentials: sandboxCredentials(sandbox) });

		expect(run.nodeError(node.name)).toBeUndefined();
		const output = run.output(node.name).map((item) => item.json);
		expect(output).toEqual(open.slice(0, 5));
		expect(output.every((threat) => threat.status === 'open')).toBe(true);
		const requests = requestsTo(sandbox, 'security');
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({
			method: 'GET',
			path: '/threats',
			query: { status: 'open' },
		});
		expect(requests[0].headers.authorization).toBe(`Bearer ${sandbox.securityKey}`);
	});

	it('Performance Service Trigger (two events, delivery headers on)', async () => {
		const saved = loadFixture('performanceServiceTrigger.json');
		const node = packageNodeOf(saved);
		expect(node).toMatchObject({
			type: `${PACKAGE_NAME}.performanceServiceTrigger`,
			typeVersion: 1.1,
			webhookId: expect.any(String),
		});
		const listener = await startWebhookListener({
			workflow: runnable(saved),
			credentials: sandboxCredentials(sandbox),
		});
		listeners.push(listener);
		expect(listener.url).toContain(`/webhook/${node.webhookId}/`);
		sandbox.addWebhookEndpoint(listener.url);

		sandbox.emit('alert.opened');
		sandbox.emit('audit.completed');
		const deliveries = await sandbox.waitForDeliveries((all) => all.length === 2);
		await listener.waitForCalls(2);

		// Both verified and acknowledged; only the selected event started the workflow.
		expect(deliveries.map((delivery) => [delivery.type, delivery.status])).toEqual([
			['alert.opened', 200],
			['audit.completed', 200],
		]);
		const started = listener.runs().flatMap((run) => run.output(node.name));
		expect(started).toHaveLength(1);
		const { _delivery: delivery, ...body } = started[0].json as IDataObject & {
			_delivery: IDataObject;
		};
		expect(body).toEqual(JSON.parse(deliveries[1].body));
		expect(delivery).toMatchObject({
			signedWith: 'current',
			headers: expect.objectContaining({
				'x-service-webhook-signature': deliveries[1].signature,
			}) as unknown,
		});
	});

	it('Security Service Trigger (new threats, severity filter, poll times)', async () => {
		const saved = loadFixture('securityServiceTrigger.json');
		const node = packageNodeOf(saved);
		expect(node).toMatchObject({
			type: `${PACKAGE_NAME}.securityServiceTrigger`,
			typeVersion: 1,
			parameters: { filters: { severity: 'high, critical' } },
		});
		const [trigger] = runnable(saved).nodes;
		const poll = (staticData?: IDataObject) =>
			runPoll({ node: trigger, credentials: sandboxCredentials(sandbox), staticData });

		const first = await poll();
		expect(first.error).toBeUndefined();
		expect(first.result).toBeNull();
		sandbox.addThreat({ severity: 'low', title: 'Outdated plugin' });
		sandbox.addThreat({ severity: 'critical', title: 'Backdoor in uploads' });
		const next = await poll(first.staticData);

		expect(next.error).toBeUndefined();
		expect(next.items.map((item) => [item.json.id, item.json.severity])).toEqual([
			['thr_29', 'critical'],
		]);
		expect(
			requestsTo(sandbox, 'security').map((request) => [request.method, request.path]),
		).toEqual([
			['GET', '/threats'],
			['GET', '/threats'],
		]);
	});
});
