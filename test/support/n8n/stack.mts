import { rmSync } from 'node:fs';

import { sandboxCredentials, startSandbox } from '../sandbox/index.mts';
import type { Sandbox, SandboxOptions } from '../sandbox/index.mts';
import { N8nClient } from './client.mts';
import type { Owner, StoredWorkflow, WorkflowDefinition } from './client.mts';
import { installCommunityPackage } from './communityPackage.mts';
import {
	adaptWorkflow,
	CREDENTIAL_NAMES,
	EXAMPLE_FILES,
	hasPackageTrigger,
	readExample,
} from './examples.mts';
import type { CredentialIds, CredentialType, ExampleKey } from './examples.mts';
import { ensureN8nInstalled } from './install.mts';
import { startN8n } from './instance.mts';
import type { N8nInstance } from './instance.mts';
import { KeptDemo, keptEncryptionKey } from './keptDemo.mts';
import { progress, timed } from './progress.mts';
import { hasWebhookTrigger, publishWebhookWorkflow } from './webhooks.mts';

export const DEMO_OWNER: Owner = {
	email: 'owner@example.com',
	firstName: 'Demo',
	lastName: 'Owner',
	password: 'Sandbox-Demo-1',
};

export interface StackOptions {
	/** Wiped and recreated (each start begins from a clean n8n matching the fresh sandbox) unless kept. */
	userFolder: string;
	/** `npm start`: keep the user folder; the owner signs in, credentials and examples are updated in place. */
	keepUserFolder?: boolean;
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
	const data = sandboxCredentials(sandbox);
	return {
		performanceServiceApi: await client.createCredential(
			CREDENTIAL_NAMES.performanceServiceApi,
			'performanceServiceApi',
			{
				...data.performanceServiceApi,
				...extraData,
			},
		),
		securityServiceApi: await client.createCredential(
			CREDENTIAL_NAMES.securityServiceApi,
			'securityServiceApi',
			{
				...data.securityServiceApi,
				...extraData,
			},
		),
	};
}

/** The examples pointed at the sandbox and at the credentials made for it. */
function exampleDefinitions(
	sandbox: Sandbox,
	ids: CredentialIds,
): Record<ExampleKey, WorkflowDefinition> {
	const keys = Object.keys(EXAMPLE_FILES) as ExampleKey[];
	return Object.fromEntries(
		keys.map((key) => [key, adaptWorkflow(readExample(key), sandbox.origin, ids)]),
	) as Record<ExampleKey, WorkflowDefinition>;
}

async function importExamples(
	client: N8nClient,
	sandbox: Sandbox,
	ids: CredentialIds,
): Promise<Record<ExampleKey, StoredWorkflow>> {
	const entries: Array<[ExampleKey, StoredWorkflow]> = [];
	for (const [key, workflow] of Object.entries(exampleDefinitions(sandbox, ids)) as Array<
		[ExampleKey, WorkflowDefinition]
	>) {
		entries.push([key, await client.createWorkflow(workflow)]);
	}
	return Object.fromEntries(entries) as Record<ExampleKey, StoredWorkflow>;
}

/**
 * Publishes the examples that start from this package's triggers; webhook ones get a sandbox endpoint.
 * Those in `published` are already live in n8n: only the sandbox endpoint is made again.
 */
async function publishTriggerWorkflows(
	client: N8nClient,
	sandbox: Sandbox,
	workflows: StoredWorkflow[],
	published = new Set<string>(),
): Promise<void> {
	for (const workflow of workflows.filter(hasPackageTrigger)) {
		const publish = !published.has(workflow.id);
		if (hasWebhookTrigger(workflow)) {
			const { url } = await publishWebhookWorkflow(client, sandbox.controlUrl, workflow, {
				publish,
			});
			progress(
				`  ${publish ? 'published' : 'kept'} "${workflow.name}"; the sandbox delivers its events to ${url}`,
			);
		} else if (publish) {
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

/**
 * A kept user folder: the owner signs in, the credentials and examples are updated in place (never
 * duplicated), examples the user unpublished stay unpublished, the rest are live again.
 */
async function provisionKept(n8n: N8nInstance, sandbox: Sandbox): Promise<Provisioned> {
	const demo = await KeptDemo.open(n8n.origin, n8n.userFolder, DEMO_OWNER);
	return await timed(
		'Updating credentials and example workflows, publishing triggers',
		async () => {
			const data = sandboxCredentials(sandbox);
			const credentialIds = {} as CredentialIds;
			for (const type of Object.keys(CREDENTIAL_NAMES) as CredentialType[]) {
				credentialIds[type] = await demo.upsertCredential(CREDENTIAL_NAMES[type], type, data[type]);
			}
			const { workflows, created } = await demo.upsertWorkflows(
				exampleDefinitions(sandbox, credentialIds),
			);
			const live = Object.values(workflows).filter(
				(workflow) => created.has(workflow.id) || workflow.active,
			);
			const published = new Set(
				live.filter((workflow) => !created.has(workflow.id)).map((workflow) => workflow.id),
			);
			await publishTriggerWorkflows(demo.client, sandbox, live, published);
			demo.save();
			return { client: demo.client, credentialIds, workflows };
		},
	);
}

/** Owner account, sandbox credentials, the examples, and their published triggers. */
async function provision(n8n: N8nInstance, sandbox: Sandbox): Promise<Provisioned> {
	const client = await N8nClient.setupOwner(n8n.origin, DEMO_OWNER);
	return await timed(
		'Importing credentials and example workflows, publishing triggers',
		async () => {
			const credentialIds = await createSandboxCredentials(client, sandbox);
			const workflows = await importExamples(client, sandbox, credentialIds);
			await publishTriggerWorkflows(client, sandbox, Object.values(workflows));
			return { client, credentialIds, workflows };
		},
	);
}

/**
 * The whole local setup: sandbox, n8n with the packed package installed as a community package,
 * the owner account, credentials pointing at the sandbox, the example workflows, published triggers.
 */
export async function startStack(options: StackOptions): Promise<Stack> {
	const installDir = await ensureN8nInstalled();
	const sandbox = await startSandbox({
		quiet: true,
		...options.sandboxOptions,
		port: options.sandboxPort,
	});
	let n8n: N8nInstance | undefined;
	try {
		const keep = options.keepUserFolder === true;
		if (!keep) rmSync(options.userFolder, { recursive: true, force: true });
		await timed("Installing the packed package into n8n's community-nodes folder", () =>
			installCommunityPackage(options.userFolder),
		);
		const encryptionKey = keep ? keptEncryptionKey(options.userFolder) : undefined;
		const instance = await timed(`Starting n8n on 127.0.0.1:${options.n8nPort}`, () =>
			startN8n({
				installDir,
				userFolder: options.userFolder,
				port: options.n8nPort,
				encryptionKey,
			}),
		);
		n8n = instance;
		const provisioned = keep
			? await provisionKept(instance, sandbox)
			: await provision(instance, sandbox);
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
