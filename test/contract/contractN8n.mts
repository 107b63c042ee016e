import { randomBytes, randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eventDigest } from '../../nodes/PerformanceService/trigger/startedEvents.ts';
import { readStoredEvents, STATIC_DATA_FIELD } from '../support/harness/startedEvents.mts';
import { SECRET } from '../support/n8n/eventBatch.mts';
import type { Event, Workload } from '../support/n8n/eventBatch.mts';
import { readSqlite, sqliteStore } from '../support/n8n/executionStore.mts';
import type { ExecutionStore } from '../support/n8n/executionStore.mts';
import { listeningPid, processGroupOf } from '../support/n8n/procfs.mts';
import { N8nClient } from '../support/n8n/client.mts';
import type { WorkflowDefinition } from '../support/n8n/client.mts';
import { installCommunityPackage } from '../support/n8n/communityPackage.mts';
import { PERFORMANCE_TRIGGER } from '../support/n8n/examples.mts';
import { ensureN8nRuntime } from '../support/n8n/install.mts';
import { startN8n } from '../support/n8n/instance.mts';
import type { N8nInstance, N8nOptions } from '../support/n8n/instance.mts';
import { ARTIFACTS_DIR, PACKAGE_NAME } from '../support/n8n/paths.mts';
import { delay, freePort, waitFor } from '../support/n8n/processes.mts';
import { nodeDescription, productionWebhookUrl, waitForWebhook } from '../support/n8n/webhooks.mts';
import { isN8n1 } from './versions.mts';

/**
 * One n8n release for the contract suite: SQLite, the packed package installed as a community
 * package, one published workflow (Performance Service Trigger 1.1 → No Operation), and the
 * means to SIGKILL n8n and start it again on the same database.
 */

export const TRIGGER_NODE = 'Performance event';
const SECURITY_WEBHOOK_NODE = 'Security ring';
const SECURITY_WEBHOOK_TRIGGER = `${PACKAGE_NAME}.securityServiceWebhookTrigger`;
const OWNER = {
	email: 'contract@example.com',
	firstName: 'Contract',
	lastName: 'Owner',
	password: 'Contract-Owner-1',
};

export interface ContractN8n {
	version: string;
	/** The trigger's production URL. */
	url: string;
	/** What the bench helpers need to count this workflow's executions (read from n8n's SQLite file). */
	work: Workload;
	/** The Security Service Webhook Trigger's workflow (new threats, against the given sandbox): its production URL and id. */
	securityWebhook: { url: string; workflowId: string };
	store: ExecutionStore;
	/** SIGKILLs n8n's process group (n8n and its task runner) at once: no answer, save or cleanup after. */
	kill(): void;
	/** Resolves once the killed (or stopped) n8n has exited. */
	down(): Promise<void>;
	/** Starts n8n again on the same user folder, database and port; resolves once the trigger's URL is served. */
	restart(): Promise<void>;
	/** Of these events, those the trigger's static data in n8n's database lists as started. */
	listedInStaticData(events: Event[]): Event[];
	logTail(lines?: number): string;
	stop(): Promise<void>;
}

function workflow(credentialId: string): WorkflowDefinition {
	return {
		name: `Contract ${randomUUID()}`,
		nodes: [
			{
				name: TRIGGER_NODE,
				type: PERFORMANCE_TRIGGER,
				typeVersion: 1.1,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: { events: ['*'], options: {} },
				credentials: { performanceServiceApi: { id: credentialId, name: 'Contract account' } },
			},
			{
				name: 'Done',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [220, 0],
				parameters: {},
			},
		],
		connections: { [TRIGGER_NODE]: { main: [[{ node: 'Done', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

/** A Security Service Webhook Trigger (new threats) → No Operation. */
function securityWebhookWorkflow(credentialId: string): WorkflowDefinition {
	return {
		name: `Contract security ${randomUUID()}`,
		nodes: [
			{
				name: SECURITY_WEBHOOK_NODE,
				type: SECURITY_WEBHOOK_TRIGGER,
				typeVersion: 1,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: { event: 'newThreat' },
				credentials: { securityServiceApi: { id: credentialId, name: 'Contract security' } },
			},
			{
				name: 'Done',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [220, 0],
				parameters: {},
			},
		],
		connections: {
			[SECURITY_WEBHOOK_NODE]: { main: [[{ node: 'Done', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** The workflow's saved static data, as n8n wrote it to its SQLite file (opened per read: n8n is killed under it). */
function savedStaticData(userFolder: string, workflowId: string): Record<string, unknown> {
	return readSqlite(path.join(userFolder, '.n8n', 'database.sqlite'), (db) => {
		const row = db
			.prepare('SELECT "staticData" AS data FROM workflow_entity WHERE id = ?')
			.get(workflowId) as { data: string | null } | undefined;
		return row?.data ? (JSON.parse(row.data) as Record<string, unknown>) : {};
	});
}

function processGroupListeningOn(port: number): number {
	const pid = listeningPid(port);
	if (pid === undefined) throw new Error(`No process listens on port ${port}`);
	return processGroupOf(pid);
}

/** Starts the release (installed once into the cache) with the contract's workflow published. */
export async function startContractN8n(
	version: string,
	security: { baseUrl: string; apiKey: string },
): Promise<ContractN8n> {
	const runtime = await ensureN8nRuntime(version);
	const n8n1 = isN8n1(version);
	const userFolder = mkdtempSync(path.join(os.tmpdir(), `n8n-contract-${version}-`));
	await installCommunityPackage(userFolder, { nodeBinary: runtime.nodeBinary });
	const port = await freePort();
	const options: N8nOptions = {
		installDir: runtime.installDir,
		nodeBinary: runtime.nodeBinary,
		userFolder,
		port,
		encryptionKey: randomBytes(24).toString('hex'),
		// n8n 1.x reports readiness before its REST API is mounted, and refuses to disable a module it lacks.
		...(n8n1
			? {
					readinessUrl: `http://127.0.0.1:${port}/rest/settings`,
					env: { N8N_DISABLED_MODULES: '' },
				}
			: {}),
	};
	let n8n: N8nInstance = await startN8n(options);
	let pgid = processGroupListeningOn(port);
	try {
		const client = await N8nClient.setupOwner(n8n.origin, OWNER);
		const credentialId = await client.createCredential(
			'Contract account',
			'performanceServiceApi',
			{
				baseUrl: 'http://127.0.0.1:9/v1',
				apiToken: 'tok_unused',
				webhookSigningSecret: SECRET,
				// n8n 1.x's public API schema requires it in every credential it creates.
				...(n8n1 ? { allowedHttpRequestDomains: 'all' } : {}),
			},
		);
		const publish = async (definition: WorkflowDefinition, nodeName: string, type: string) => {
			const stored = await client.createWorkflow(definition);
			if (n8n1) await client.activateWorkflow(stored.id);
			else await client.publishWorkflow(stored.id);
			const trigger = stored.nodes.find((node) => node.name === nodeName)!;
			const url = productionWebhookUrl(n8n.origin, trigger, await nodeDescription(client, type));
			await waitForWebhook(url);
			return { url, workflowId: stored.id };
		};
		const { url, workflowId } = await publish(
			workflow(credentialId),
			TRIGGER_NODE,
			PERFORMANCE_TRIGGER,
		);
		const securityCredentialId = await client.createCredential(
			'Contract security',
			'securityServiceApi',
			{ ...security, ...(n8n1 ? { allowedHttpRequestDomains: 'all' } : {}) },
		);
		const securityWebhook = await publish(
			securityWebhookWorkflow(securityCredentialId),
			SECURITY_WEBHOOK_NODE,
			SECURITY_WEBHOOK_TRIGGER,
		);
		// n8n serves the URL before it saves what publishing remembered (a ring before is refused 503).
		await waitFor('the Security Service Webhook Trigger to remember the list', async () => {
			const saved = savedStaticData(userFolder, securityWebhook.workflowId);
			return saved[`node:${SECURITY_WEBHOOK_NODE}`] ? true : undefined;
		});

		const store = sqliteStore(userFolder);
		const work: Workload = {
			workflowId,
			urls: [url],
			store,
			pgids: () => [pgid],
		};
		return {
			version,
			url,
			work,
			securityWebhook,
			store,
			kill: () => process.kill(-pgid, 'SIGKILL'),
			down: async () => {
				// startN8n writes a last line to the log up to 1 s after n8n exits; stopping ends the log,
				// and a write racing the end is an uncaught stream error. After a kill, let that line in first.
				await delay(1_500);
				await n8n.stop();
			},
			restart: async () => {
				await n8n.stop();
				n8n = await startN8n(options);
				pgid = processGroupListeningOn(port);
				await waitForWebhook(url);
			},
			listedInStaticData: (events) => {
				const saved = savedStaticData(userFolder, workflowId);
				const listed = new Set<string>();
				for (const [key, value] of Object.entries(saved)) {
					if (!key.startsWith('node:') || value === null || typeof value !== 'object') continue;
					const field = (value as Record<string, unknown>)[STATIC_DATA_FIELD];
					for (const digest of readStoredEvents(field).keys()) listed.add(digest);
				}
				return events.filter((event) =>
					listed.has(eventDigest(JSON.parse(event.body), Buffer.from(event.body))),
				);
			},
			logTail: (lines) => n8n.logTail(lines),
			stop: async () => {
				await n8n.stop();
				// The log outlives the user folder (the weekly workflow uploads test-artifacts/).
				mkdirSync(ARTIFACTS_DIR, { recursive: true });
				copyFileSync(n8n.logFile, path.join(ARTIFACTS_DIR, `contract-n8n-${version}.log`));
				rmSync(userFolder, { recursive: true, force: true });
			},
		};
	} catch (error) {
		await n8n.stop();
		throw error;
	}
}
