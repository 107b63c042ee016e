import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { N8nClient } from '../test/support/n8n/client.mts';
import type { WorkflowDefinition, WorkflowNode } from '../test/support/n8n/client.mts';
import { PERFORMANCE_TRIGGER } from '../test/support/n8n/examples.mts';
import { startN8n } from '../test/support/n8n/instance.mts';
import type { N8nInstance } from '../test/support/n8n/instance.mts';
import { freePort } from '../test/support/n8n/processes.mts';
import { waitForWebhook } from '../test/support/n8n/webhooks.mts';
import { SECRET } from '../test/support/n8n/eventBatch.mts';
import type { Workload } from '../test/support/n8n/eventBatch.mts';
import { installTarballs } from '../test/support/n8n/communityPackage.mts';
import {
	BASELINE_TRIGGER,
	DURABLE_FLOOR_TRIGGER,
	MINIMAL_TRIGGER,
	MINIMAL_WITH_CREDENTIAL,
	REMEMBERING_FLOOR_TRIGGER,
} from './benchPackages.mts';
import { sqliteStore } from '../test/support/n8n/executionStore.mts';
import { listeningPid, processGroupOf } from '../test/support/n8n/procfs.mts';

/** The start nodes the benchmark compares, each in a workflow start node → No Operation. */
export type StartKind =
	| 'trigger'
	| 'baseline'
	| 'minimal'
	| 'durableFloor'
	| 'rememberingFloor'
	| 'webhookNode';

/** The starts both n8n benchmarks measure, in the order each round runs them. */
export const TRIGGER_STARTS = [
	'triggerFresh',
	'triggerFilled',
	'minimal',
	'durableFloor',
	'rememberingFloor',
] as const;
export type TriggerStart = (typeof TRIGGER_STARTS)[number];
export const TRIGGER_START_LABELS: Record<TriggerStart, string> = {
	triggerFresh: 'trigger, fresh',
	triggerFilled: 'trigger, pre-filled',
	minimal: MINIMAL_WITH_CREDENTIAL ? 'minimal trigger (with a credential)' : 'minimal trigger',
	durableFloor: 'durable floor (minimal + credential + one save)',
	rememberingFloor: 'durable floor keeping 5,000 digests (60,000 characters)',
};

export const START_NODE = 'Start';
const OWNER = {
	email: 'bench@example.com',
	firstName: 'Bench',
	lastName: 'Owner',
	password: 'Bench-Owner-1',
};

/** The node version of the community triggers: the one the Performance Service Trigger ships. */
export const TRIGGER_VERSION = 1.1;

/** A community trigger start node; its credential is the bench account where it takes one. */
function triggerNode(
	type: string,
	webhookId: string,
	parameters: WorkflowNode['parameters'],
	credentialId: string | undefined,
): WorkflowNode {
	return {
		name: START_NODE,
		type,
		typeVersion: TRIGGER_VERSION,
		position: [0, 0],
		webhookId,
		parameters,
		credentials: credentialId
			? { performanceServiceApi: { id: credentialId, name: 'Bench account' } }
			: undefined,
	};
}

function startNode(kind: StartKind, webhookId: string, credentialId?: string): WorkflowNode {
	switch (kind) {
		case 'trigger':
		case 'baseline':
			// Default options: a 24-hour duplicate window, far longer than a run.
			return triggerNode(
				kind === 'trigger' ? PERFORMANCE_TRIGGER : BASELINE_TRIGGER,
				webhookId,
				{ events: ['*'], options: {} },
				credentialId,
			);
		case 'minimal':
			return triggerNode(
				MINIMAL_TRIGGER,
				webhookId,
				{},
				MINIMAL_WITH_CREDENTIAL ? credentialId : undefined,
			);
		case 'durableFloor':
			return triggerNode(DURABLE_FLOOR_TRIGGER, webhookId, {}, credentialId);
		case 'rememberingFloor':
			return triggerNode(REMEMBERING_FLOOR_TRIGGER, webhookId, {}, credentialId);
		case 'webhookNode':
			return {
				name: START_NODE,
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId,
				parameters: { httpMethod: 'POST', path: webhookId, options: {} },
			};
	}
}

export function benchWorkflow(
	kind: StartKind,
	webhookId: string,
	credentialId?: string,
): WorkflowDefinition {
	return {
		name: `Bench ${kind} ${webhookId.slice(0, 8)}`,
		nodes: [
			startNode(kind, webhookId, credentialId),
			{
				name: 'Done',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [220, 0],
				parameters: {},
			},
		],
		connections: { [START_NODE]: { main: [[{ node: 'Done', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

/** The production URL path of a workflow's start node. */
export function webhookPath(kind: StartKind, webhookId: string): string {
	return kind === 'webhookNode' ? `/webhook/${webhookId}` : `/webhook/${webhookId}/webhook`;
}

/** The credential the trigger verifies with; the service URL is never called. */
export async function createBenchCredential(client: N8nClient): Promise<string> {
	return await client.createCredential('Bench account', 'performanceServiceApi', {
		baseUrl: 'http://127.0.0.1:9/v1',
		apiToken: 'tok_unused',
		webhookSigningSecret: SECRET,
	});
}

/**
 * Creates and publishes a workflow and waits until its webhook answers. (For the minimal trigger
 * and the Webhook node the probe starts one execution without an event id, left out of every count.)
 */
export async function publishBenchWorkflow(
	client: N8nClient,
	origins: string[],
	kind: StartKind,
	credentialId?: string,
): Promise<{ workflowId: string; urls: string[] }> {
	const webhookId = randomUUID();
	const workflow = await client.createWorkflow(benchWorkflow(kind, webhookId, credentialId));
	await client.publishWorkflow(workflow.id);
	const urls = origins.map((origin) => `${origin}${webhookPath(kind, webhookId)}`);
	for (const url of urls) await waitForWebhook(url);
	return { workflowId: workflow.id, urls };
}

/** One n8n (SQLite, regular mode) of the benchmark, with both packages installed; restartable with other settings. */
export class BenchInstance {
	readonly name: string;
	readonly userFolder: string;
	private readonly installDir: string;
	private readonly encryptionKey = randomBytes(24).toString('hex');
	port = 0;
	env: Record<string, string> = {};
	n8n: N8nInstance | undefined;
	pgid = 0;
	client: N8nClient | undefined;
	credentialId: string | undefined;

	private constructor(name: string, installDir: string) {
		this.name = name;
		this.installDir = installDir;
		this.userFolder = mkdtempSync(path.join(os.tmpdir(), `n8n-bench-${name}-`));
	}

	static async create(
		name: string,
		installDir: string,
		tarballs: string[],
		env: Record<string, string>,
	): Promise<BenchInstance> {
		const instance = new BenchInstance(name, installDir);
		try {
			await installTarballs(instance.userFolder, tarballs);
			instance.port = await freePort();
			await instance.boot(env);
			const client = await N8nClient.setupOwner(instance.origin, OWNER);
			instance.client = client;
			instance.credentialId = await createBenchCredential(client);
			return instance;
		} catch (error) {
			await instance.dispose();
			throw error;
		}
	}

	get origin(): string {
		return `http://127.0.0.1:${this.port}`;
	}

	/** Starts n8n on the same user folder, port and key, with these settings. */
	async boot(env: Record<string, string>): Promise<void> {
		this.env = env;
		this.n8n = await startN8n({
			installDir: this.installDir,
			userFolder: this.userFolder,
			port: this.port,
			encryptionKey: this.encryptionKey,
			env,
		});
		const pid = listeningPid(this.port);
		if (pid === undefined) throw new Error(`No process listens on port ${this.port}`);
		this.pgid = processGroupOf(pid);
	}

	async restart(env = this.env): Promise<void> {
		await this.n8n?.stop();
		await this.boot(env);
	}

	/** A new published workflow (nothing remembered) started by `kind`. */
	async workload(kind: StartKind): Promise<Workload> {
		if (!this.client) throw new Error(`${this.name} has no client`);
		const { workflowId, urls } = await publishBenchWorkflow(
			this.client,
			[this.origin],
			kind,
			this.credentialId,
		);
		return {
			workflowId,
			urls,
			store: sqliteStore(this.userFolder),
			pgids: () => [this.pgid],
		};
	}

	async dispose(): Promise<void> {
		await this.n8n?.stop();
		rmSync(this.userFolder, { recursive: true, force: true });
	}
}
