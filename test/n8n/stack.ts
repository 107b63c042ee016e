import { rmSync } from 'node:fs';

import { startSandbox } from '../sandbox/index.ts';
import type { Sandbox, SandboxOptions } from '../sandbox/index.ts';
import { N8nClient } from './client.ts';
import type { Owner, StoredWorkflow } from './client.ts';
import { installCommunityPackage } from './communityPackage.ts';
import { adaptWorkflow, CREDENTIAL_NAMES, EXAMPLE_FILES, hasPackageTrigger, PERFORMANCE_TRIGGER, readExample } from './examples.ts';
import type { CredentialIds, ExampleKey } from './examples.ts';
import { ensureN8nInstalled } from './install.ts';
import { startN8n } from './instance.ts';
import type { N8nInstance } from './instance.ts';
import { progress, timed } from './progress.ts';
import { publishWebhookWorkflow } from './webhooks.ts';

export const DEMO_OWNER: Owner = {
	email: 'owner@example.com',
	firstName: 'Demo',
	lastName: 'Owner',
	password: 'Sandbox-Demo-1',
};

export interface StackOptions {
	/** Wiped and recreated: each start begins from a clean n8n matching the fresh sandbox. */
	userFolder: string;
	n8nPort: number;
	sandboxPort: number;
	sandboxOptions?: SandboxOptions;
}

export interface Stack {
	sandbox: Sandbox;
	n8n: N8nInstance;
	client: N8nClient;
	owner: Owner;
	credentialIds: CredentialIds;
	workflows: Record<ExampleKey, StoredWorkflow>;
	stop(): Promise<void>;
}

/**
 * Credentials pointing at the sandbox. `extraData` is added to both: n8n 1.x's public API
 * requires `allowedHttpRequestDomains` in every credential it creates.
 */
export async function createSandboxCredentials(
	client: N8nClient,
	sandbox: Sandbox,
	extraData: Record<string, unknown> = {},
): Promise<CredentialIds> {
	return {
		performanceServiceApi: await client.createCredential(CREDENTIAL_NAMES.performanceServiceApi, 'performanceServiceApi', {
			baseUrl: sandbox.performanceUrl,
			apiToken: sandbox.tokens.readWrite,
			webhookSigningSecret: sandbox.signingSecret,
			...extraData,
		}),
		securityServiceApi: await client.createCredential(CREDENTIAL_NAMES.securityServiceApi, 'securityServiceApi', {
			baseUrl: sandbox.securityUrl,
			apiKey: sandbox.securityKey,
			...extraData,
		}),
	};
}

async function importExamples(client: N8nClient, sandbox: Sandbox, ids: CredentialIds): Promise<Record<ExampleKey, StoredWorkflow>> {
	const entries: Array<[ExampleKey, StoredWorkflow]> = [];
	for (const key of Object.keys(EXAMPLE_FILES) as ExampleKey[]) {
		const workflow = adaptWorkflow(readExample(key), sandbox.origin, ids);
		entries.push([key, await client.createWorkflow(workflow)]);
	}
	return Object.fromEntries(entries) as Record<ExampleKey, StoredWorkflow>;
}

/** Publishes the examples that start from this package's triggers; webhook ones get a sandbox endpoint. */
async function publishTriggerWorkflows(client: N8nClient, sandbox: Sandbox, workflows: StoredWorkflow[]): Promise<void> {
	for (const workflow of workflows.filter(hasPackageTrigger)) {
		if (workflow.nodes.some((node) => node.type === PERFORMANCE_TRIGGER)) {
			const { url } = await publishWebhookWorkflow(client, sandbox.controlUrl, workflow);
			progress(`  published "${workflow.name}"; the sandbox delivers its events to ${url}`);
		} else {
			await client.publishWorkflow(workflow.id);
			progress(`  published "${workflow.name}"`);
		}
	}
}

interface Provisioned {
	client: N8nClient;
	credentialIds: CredentialIds;
	workflows: Record<ExampleKey, StoredWorkflow>;
}

/** Owner account, sandbox credentials, the examples, and their published triggers. */
async function provision(n8n: N8nInstance, sandbox: Sandbox): Promise<Provisioned> {
	const client = await N8nClient.setupOwner(n8n.origin, DEMO_OWNER);
	return await timed('Importing credentials and example workflows, publishing triggers', async () => {
		const credentialIds = await createSandboxCredentials(client, sandbox);
		const workflows = await importExamples(client, sandbox, credentialIds);
		await publishTriggerWorkflows(client, sandbox, Object.values(workflows));
		return { client, credentialIds, workflows };
	});
}

/**
 * The whole local setup: sandbox, n8n with the packed package installed as a community package,
 * the owner account, credentials pointing at the sandbox, the example workflows, published triggers.
 */
export async function startStack(options: StackOptions): Promise<Stack> {
	const installDir = await ensureN8nInstalled();
	const sandbox = await startSandbox({ quiet: true, ...options.sandboxOptions, port: options.sandboxPort });
	let n8n: N8nInstance | undefined;
	try {
		rmSync(options.userFolder, { recursive: true, force: true });
		await timed("Installing the packed package into n8n's community-nodes folder", () =>
			installCommunityPackage(options.userFolder),
		);
		const instance = await timed(`Starting n8n on 127.0.0.1:${options.n8nPort}`, () =>
			startN8n({ installDir, userFolder: options.userFolder, port: options.n8nPort }),
		);
		n8n = instance;
		const provisioned = await provision(instance, sandbox);
		const stop = async (): Promise<void> => {
			await instance.stop();
			await sandbox.close();
		};
		return { sandbox, n8n: instance, owner: DEMO_OWNER, ...provisioned, stop };
	} catch (error) {
		await n8n?.stop();
		await sandbox.close();
		throw error;
	}
}
