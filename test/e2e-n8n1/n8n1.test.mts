import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startSandbox } from '../support/sandbox/index.mts';
import type { Sandbox } from '../support/sandbox/index.mts';
import { N8nClient } from '../support/n8n/client.mts';
import type { StoredWorkflow } from '../support/n8n/client.mts';
import { installCommunityPackage } from '../support/n8n/communityPackage.mts';
import { PERFORMANCE_TRIGGER, SECURITY_TRIGGER } from '../support/n8n/examples.mts';
import { postDelivery, signedDelivery, tampered } from '../support/n8n/deliveries.mts';
import { ensureN8nRuntime, ensureNodeInstalled } from '../support/n8n/install.mts';
import type { N8nRuntime } from '../support/n8n/install.mts';
import { startN8n } from '../support/n8n/instance.mts';
import type { N8nInstance } from '../support/n8n/instance.mts';
import {
	N8N1_NODE_VERSION,
	N8N1_VERSION,
	OLDEST_NODE_VERSION,
	PACKAGE_NAME,
} from '../support/n8n/paths.mts';
import { freePort, runCommand, waitFor } from '../support/n8n/processes.mts';
import { waitForExecutions } from '../e2e/executions.mts';
import {
	deliveredEventIds,
	expectActionNodesRan,
	expectEachNewThreatOnce,
	runActionNodes,
	runPollerOnce,
	waitForEventExecution,
} from '../support/n8n/realChecks.mts';
import type { PollerResult } from '../support/n8n/realChecks.mts';
import { createSandboxCredentials, DEMO_OWNER } from '../support/n8n/stack.mts';
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

/** The same tarball in the newest n8n 1.x, on the Node release it declares, with the sandbox as the service. */

let runtime: N8nRuntime;
let sandbox: Sandbox;
let userFolder: string;
let n8n: N8nInstance;
let client: N8nClient;
let installOutput: string;
let actions: StoredWorkflow & { path: string };
let trigger: StoredWorkflow;
let triggerUrl: string;
let poller: StoredWorkflow;
let pollerRun: Promise<PollerResult>;
let credentialIds: Awaited<ReturnType<typeof createSandboxCredentials>>;

beforeAll(async () => {
	runtime = await ensureN8nRuntime(N8N1_VERSION);
	sandbox = await startSandbox({ quiet: true, port: await freePort() });
	userFolder = mkdtempSync(path.join(os.tmpdir(), 'n8n1-e2e-'));
	installOutput = await installCommunityPackage(userFolder, { nodeBinary: runtime.nodeBinary });
	const port = await freePort();
	n8n = await startN8n({
		installDir: runtime.installDir,
		nodeBinary: runtime.nodeBinary,
		userFolder,
		port,
		// 1.x reports readiness before its REST API is mounted; the editor's settings come with it.
		readinessUrl: `http://127.0.0.1:${port}/rest/settings`,
		// 1.x has no mcp-registry module to disable, and refuses to start when told to.
		env: { N8N_DISABLED_MODULES: '' },
	});
	client = await N8nClient.setupOwner(n8n.origin, DEMO_OWNER);
	// n8n 1.x's public API schema requires this field in every credential it creates.
	credentialIds = await createSandboxCredentials(client, sandbox, {
		allowedHttpRequestDomains: 'all',
	});

	poller = await client.createWorkflow(threatPollerWorkflow(credentialIds));
	await client.activateWorkflow(poller.id);
	// Polls come once a minute: the poller's check runs while the other tests do, and its test awaits it.
	pollerRun = runPollerOnce(client, sandbox, poller.id, Date.now());
	pollerRun.catch(() => undefined);
	const definition = actionNodesWorkflow(credentialIds);
	actions = { ...(await client.createWorkflow(definition)), path: definition.path };
	await client.activateWorkflow(actions.id);
	trigger = await client.createWorkflow(deliveryTriggerWorkflow(credentialIds));
	await client.activateWorkflow(trigger.id);
	triggerUrl = productionWebhookUrl(
		n8n.origin,
		performanceTriggerNode(trigger),
		await nodeDescription(client, PERFORMANCE_TRIGGER),
	);
	await waitForWebhook(triggerUrl);
}, 1_200_000);

afterAll(async () => {
	await n8n?.stop();
	await sandbox?.close();
	if (userFolder) rmSync(userFolder, { recursive: true, force: true });
}, 120_000);

describe(`n8n ${N8N1_VERSION} on Node ${N8N1_NODE_VERSION}`, () => {
	it('runs the n8n 1.x release on the Node it declares, and installs the package there without an engines warning', async () => {
		const nodeVersion = (await runCommand(runtime.nodeBinary, ['--version'])).stdout.trim();
		expect(nodeVersion).toBe(`v${N8N1_NODE_VERSION}`);
		expect((await n8n.cli(['--version'])).trim()).toBe(N8N1_VERSION);
		expect(installOutput).not.toContain('EBADENGINE');
	});

	it(`loads the installed build on Node ${OLDEST_NODE_VERSION}, the oldest Node engines.node admits, with n8n 1.x's n8n-workflow`, async () => {
		const oldestNode = await ensureNodeInstalled(OLDEST_NODE_VERSION);
		const packageDir = path.join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
		// Requires every node and credential file n8n would load, and instantiates the class named after the file.
		const script = `
			const path = require('node:path');
			const { n8n } = require(path.join(process.argv[1], 'package.json'));
			const names = [...n8n.nodes, ...n8n.credentials].map((file) => {
				const className = path.basename(file).split('.')[0];
				const instance = new (require(path.join(process.argv[1], file))[className])();
				return (instance.description ?? instance).name;
			});
			process.stdout.write(JSON.stringify({ node: process.version, names }));`;
		const { stdout } = await runCommand(oldestNode, ['-e', script, packageDir], {
			env: { PATH: process.env.PATH, NODE_PATH: path.join(runtime.installDir, 'node_modules') },
		});
		const loaded = JSON.parse(stdout) as { node: string; names: string[] };
		expect(loaded.node).toBe(`v${OLDEST_NODE_VERSION}`);
		expect(loaded.names.sort()).toEqual([
			'performanceService',
			'performanceServiceApi',
			'performanceServicePollTrigger',
			'performanceServiceTrigger',
			'securityService',
			'securityServiceApi',
			'securityServiceTrigger',
			'securityServiceWebhookTrigger',
		]);
	});

	it('loads every node and credential type of the package', async () => {
		const nodeTypes = (await client.nodeTypes()).map((type) => type.name);
		for (const name of [
			'performanceService',
			'performanceServicePollTrigger',
			'performanceServiceTrigger',
			'securityService',
			'securityServiceTrigger',
		]) {
			expect(nodeTypes).toContain(`${PACKAGE_NAME}.${name}`);
		}
		expect(nodeTypes).toContain(SECURITY_TRIGGER);
		const credentialTypes = (await client.credentialTypes()).map((type) => type.name);
		expect(credentialTypes).toEqual(
			expect.arrayContaining(['performanceServiceApi', 'securityServiceApi']),
		);
	});

	it('runs one operation of each action node', async () => {
		const run = await runActionNodes(
			client,
			sandbox,
			actions.id,
			`${n8n.origin}/webhook/${actions.path}`,
		);
		expectActionNodesRan(run);
	});

	it('starts one execution for a signed delivery and answers a tampered one 401', async () => {
		const forged = tampered(signedDelivery(sandbox.signingSecret));
		expect((await postDelivery(triggerUrl, forged)).status).toBe(401);
		const signed = signedDelivery(sandbox.signingSecret);
		expect((await postDelivery(triggerUrl, signed)).status).toBe(200);
		await waitForEventExecution(client, trigger.id, signed.eventId);
		const ids = await deliveredEventIds(client, trigger.id);
		expect(ids).toEqual([signed.eventId]);
		expect(ids).not.toContain(forged.eventId);
	});

	it('sends a failed item down the error output with "Continue (using error output)", and down the success output with "Continue (using regular output)"', async () => {
		const webhookPath = randomUUID();
		const getMissingSite = {
			resource: 'site',
			operation: 'get',
			siteId: { __rl: true, mode: 'id', value: 'site_999' },
		};
		const actionNode = (name: string, onError: string, y: number) => ({
			name,
			type: `${PACKAGE_NAME}.performanceService`,
			typeVersion: 2,
			position: [260, y] as [number, number],
			onError,
			parameters: getMissingSite,
			credentials: {
				performanceServiceApi: { id: credentialIds.performanceServiceApi, name: 'Performance' },
			},
		});
		const workflow = await client.createWorkflow({
			name: `On Error ${webhookPath}`,
			nodes: [
				{
					name: 'Start',
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					position: [0, 0],
					webhookId: randomUUID(),
					parameters: { httpMethod: 'POST', path: webhookPath, options: {} },
				},
				actionNode('Error output', 'continueErrorOutput', -100),
				actionNode('Regular output', 'continueRegularOutput', 100),
			],
			connections: {
				Start: {
					main: [
						[
							{ node: 'Error output', type: 'main', index: 0 },
							{ node: 'Regular output', type: 'main', index: 0 },
						],
					],
				},
			},
			settings: { executionOrder: 'v1' },
		});
		await client.activateWorkflow(workflow.id);
		await waitFor('the On Error webhook', async () => {
			const response = await fetch(`${n8n.origin}/webhook/${webhookPath}`, {
				method: 'POST',
				body: '{}',
			});
			await response.body?.cancel();
			return response.status === 404 ? undefined : response.status;
		});
		const [execution] = await waitForExecutions(client, workflow.id, 1);
		const detail = await client.execution(execution.id);
		const outputs = (node: string) =>
			(detail.data?.resultData.runData[node]?.[0]?.data?.main ?? []).map((items) =>
				(items ?? []).map((item) => item.json),
			);
		const [errorSuccess = [], errorFailed = []] = outputs('Error output');
		expect(errorSuccess).toEqual([]);
		expect(errorFailed).toHaveLength(1);
		expect(errorFailed[0].error).toBe('The site "site_999" was not found [not_found]');
		expect(errorFailed[0].message).toMatch(/Check the ID/);
		const [regular = [], regularErrors = []] = outputs('Regular output');
		expect(regularErrors).toEqual([]);
		expect(regular).toEqual([
			{
				error: 'The site "site_999" was not found [not_found]',
				message: expect.stringMatching(/Check the ID/) as unknown,
			},
		]);
	});

	it('emits a new threat from the poller once', async () => {
		const result = await pollerRun;
		expectEachNewThreatOnce(result);
	});
});
