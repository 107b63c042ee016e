/**
 * What lets `npm start` keep its n8n user folder between starts: the owner signs in again, the
 * demo's API key is reused, and the credentials and example workflows are found and updated in
 * place instead of created again. Workflows the user made are never touched.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { N8nApiError, N8nClient } from './client.mts';
import type { Owner, StoredWorkflow, WorkflowDefinition } from './client.mts';

/** Kept next to n8n's own `.n8n/` folder; holds the demo's API key, so it is written owner-only. */
const STATE_FILE = 'npm-start.json';

interface KeptState {
	apiKey?: string;
	/** Per example: the workflow created for it and a digest of what was last written to it. */
	workflows: Record<string, { id: string; digest: string }>;
}

type ListedWorkflow = StoredWorkflow & { isArchived?: boolean };

interface CredentialSummary {
	id: string;
	name: string;
	type: string;
}

/** The key n8n wrote to `<userFolder>/.n8n/config` on its first start: it refuses to start with another one. */
export function keptEncryptionKey(userFolder: string): string | undefined {
	try {
		const settings = JSON.parse(readFileSync(path.join(userFolder, '.n8n', 'config'), 'utf8')) as {
			encryptionKey?: unknown;
		};
		return typeof settings.encryptionKey === 'string' ? settings.encryptionKey : undefined;
	} catch {
		return undefined;
	}
}

function digestOf(definition: WorkflowDefinition): string {
	return createHash('sha256').update(JSON.stringify(definition)).digest('hex');
}

async function ownerIsSetUp(origin: string): Promise<boolean> {
	const response = await fetch(`${origin}/rest/settings`);
	const body = (await response.json()) as {
		data?: { userManagement?: { showSetupOnFirstLoad?: boolean } };
	};
	return body.data?.userManagement?.showSetupOnFirstLoad === false;
}

async function signIn(origin: string, owner: Owner): Promise<N8nClient> {
	const response = await fetch(`${origin}/rest/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ emailOrLdapLoginId: owner.email, password: owner.password }),
	});
	const cookie = response.headers.getSetCookie().find((value) => value.startsWith('n8n-auth='));
	if (!response.ok || !cookie) {
		throw new Error(
			`Could not sign in to the kept n8n as ${owner.email} (${response.status}): was the password changed? ` +
				'Start from a clean n8n with `npm start -- --reset`.',
		);
	}
	return N8nClient.fromSession(origin, cookie.split(';')[0]);
}

function isNotFound(error: unknown): boolean {
	return error instanceof N8nApiError && error.status === 404;
}

export interface UpsertedWorkflows<K extends string> {
	workflows: Record<K, StoredWorkflow>;
	/** Ids of the workflows created by this start (the others existed already). */
	created: Set<string>;
}

export class KeptDemo {
	readonly client: N8nClient;
	private readonly stateFile: string;
	private readonly state: KeptState;

	private constructor(client: N8nClient, stateFile: string, state: KeptState) {
		this.client = client;
		this.stateFile = stateFile;
		this.state = state;
	}

	/** Signs in as the owner (creating it on a fresh folder) and reuses the demo's API key while n8n accepts it. */
	static async open(origin: string, userFolder: string, owner: Owner): Promise<KeptDemo> {
		const stateFile = path.join(userFolder, STATE_FILE);
		let state: KeptState = { workflows: {} };
		try {
			state = { ...state, ...(JSON.parse(readFileSync(stateFile, 'utf8')) as Partial<KeptState>) };
		} catch {
			// First start in this folder.
		}
		const client = (await ownerIsSetUp(origin))
			? await signIn(origin, owner)
			: await N8nClient.setupOwner(origin, owner);
		client.apiKey = state.apiKey;
		if (client.apiKey !== undefined) {
			try {
				await client.api('GET', '/workflows?limit=1');
			} catch (error) {
				if (!(error instanceof N8nApiError && error.status === 401)) throw error;
				client.apiKey = undefined;
			}
		}
		return new KeptDemo(client, stateFile, state);
	}

	/** Updates the credential of that name and type, or creates it; returns its id. */
	async upsertCredential(
		name: string,
		type: string,
		data: Record<string, unknown>,
	): Promise<string> {
		const { data: existing } = await this.client.api<{ data: CredentialSummary[] }>(
			'GET',
			'/credentials?limit=250',
		);
		const found = existing.find(
			(credential) => credential.name === name && credential.type === type,
		);
		if (!found) return await this.client.createCredential(name, type, data);
		await this.client.api('PATCH', `/credentials/${found.id}`, { name, type, data });
		return found.id;
	}

	/**
	 * Each definition goes to the workflow made for it before (or, failing that, the one of the
	 * same name), which is rewritten only when the definition differs from what was last written
	 * there: a user's edits to an example stay until the example itself changes.
	 */
	async upsertWorkflows<K extends string>(
		definitions: Record<K, WorkflowDefinition>,
	): Promise<UpsertedWorkflows<K>> {
		const workflows = {} as Record<K, StoredWorkflow>;
		const created = new Set<string>();
		for (const key of Object.keys(definitions) as K[]) {
			const definition = definitions[key];
			const digest = digestOf(definition);
			const known = this.state.workflows[key];
			let stored =
				(known && (await this.workflowById(known.id))) ??
				(await this.workflowByName(definition.name));
			if (!stored) {
				stored = await this.client.createWorkflow(definition);
				created.add(stored.id);
			} else if (known?.id !== stored.id || known.digest !== digest) {
				const { name, nodes, connections, settings } = definition;
				stored = await this.client.api<StoredWorkflow>('PUT', `/workflows/${stored.id}`, {
					name,
					nodes,
					connections,
					settings: settings ?? {},
				});
			}
			this.state.workflows[key] = { id: stored.id, digest };
			workflows[key] = stored;
		}
		return { workflows, created };
	}

	/** Writes the state file (owner-only: it holds the API key). */
	save(): void {
		this.state.apiKey = this.client.apiKey;
		writeFileSync(this.stateFile, JSON.stringify(this.state, null, 2), { mode: 0o600 });
	}

	/** A workflow the user archived (n8n's delete) counts as gone. */
	private async workflowById(id: string): Promise<StoredWorkflow | undefined> {
		try {
			const workflow: ListedWorkflow = await this.client.getWorkflow(id);
			return workflow.isArchived ? undefined : workflow;
		} catch (error) {
			if (isNotFound(error)) return undefined;
			throw error;
		}
	}

	private async workflowByName(name: string): Promise<StoredWorkflow | undefined> {
		const { data } = await this.client.api<{ data: ListedWorkflow[] }>(
			'GET',
			`/workflows?name=${encodeURIComponent(name)}`,
		);
		return data.find((workflow) => workflow.name === name && !workflow.isArchived);
	}
}
