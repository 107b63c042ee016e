/** A small client for the parts of n8n's REST API (cookie) and public API (API key) that start and the e2e tests use. */

export interface Owner {
	email: string;
	firstName: string;
	lastName: string;
	password: string;
}

export interface WorkflowDefinition {
	name: string;
	nodes: WorkflowNode[];
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
}

export interface WorkflowNode {
	id?: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	webhookId?: string;
	credentials?: Record<string, { id: string; name: string }>;
	[key: string]: unknown;
}

export interface StoredWorkflow extends WorkflowDefinition {
	id: string;
	active: boolean;
	/** What the nodes keep between executions, by `node:<name>` (n8n's workflow static data). */
	staticData?: Record<string, unknown> | null;
}

export interface ExecutionSummary {
	id: string;
	workflowId: string;
	mode: string;
	status: string;
	finished: boolean;
	startedAt: string;
	stoppedAt: string | null;
}

export interface NodeRunData {
	data?: { main?: Array<Array<{ json: Record<string, unknown> }> | null> };
	error?: { message?: string };
}

export interface ExecutionDetail extends ExecutionSummary {
	data?: { resultData: { runData: Record<string, NodeRunData[]>; error?: { message?: string } } };
}

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

export interface NodeTypeDescription {
	name: string;
	displayName: string;
	version: number | number[];
	icon?: unknown;
	iconUrl?: unknown;
	outputs?: unknown;
	credentials?: Array<{ name: string }>;
	webhooks?: Array<{ httpMethod: string; path: string; isFullPath?: boolean }>;
	properties: Array<{ name: string }>;
}

export class N8nApiError extends Error {
	readonly status: number;
	readonly body: string;

	constructor(method: string, url: string, status: number, body: string) {
		super(`${method} ${url} answered ${status}: ${body.slice(0, 500)}`);
		this.status = status;
		this.body = body;
	}
}

async function request(
	url: string,
	init: RequestInit,
): Promise<{ body: unknown; cookie: string | null }> {
	const response = await fetch(url, init);
	const text = await response.text();
	if (!response.ok) throw new N8nApiError(init.method ?? 'GET', url, response.status, text);
	const cookie = response.headers.getSetCookie().find((value) => value.startsWith('n8n-auth='));
	return {
		body: text ? (JSON.parse(text) as unknown) : undefined,
		cookie: cookie ? cookie.split(';')[0] : null,
	};
}

function jsonInit(method: string, headers: Record<string, string>, body?: unknown): RequestInit {
	return body === undefined
		? { method, headers }
		: {
				method,
				headers: { ...headers, 'content-type': 'application/json' },
				body: JSON.stringify(body),
			};
}

export class N8nClient {
	readonly origin: string;
	readonly cookie: string;
	apiKey: string | undefined;

	private constructor(origin: string, cookie: string) {
		this.origin = origin;
		this.cookie = cookie;
	}

	/** Creates the owner account of a fresh instance and signs in as it. */
	static async setupOwner(origin: string, owner: Owner): Promise<N8nClient> {
		const { cookie } = await request(`${origin}/rest/owner/setup`, jsonInit('POST', {}, owner));
		if (!cookie) throw new Error('n8n set no auth cookie after owner setup');
		return new N8nClient(origin, cookie);
	}

	/** A client for a session made elsewhere (n8n limits sign-ins to a few per minute). */
	static fromSession(origin: string, cookie: string, apiKey?: string): N8nClient {
		const client = new N8nClient(origin, cookie);
		client.apiKey = apiKey;
		return client;
	}

	/** Internal REST API (`/rest/...`, `/types/...`) with the session cookie; unwraps `{ data }`. */
	async rest<T>(method: string, path: string, body?: unknown): Promise<T> {
		const { body: answer } = await request(
			`${this.origin}${path}`,
			jsonInit(method, { cookie: this.cookie }, body),
		);
		return (
			answer !== null && typeof answer === 'object' && 'data' in answer ? answer.data : answer
		) as T;
	}

	/** Public API (`/api/v1/...`) with an API key, created on first use. */
	async api<T>(method: string, path: string, body?: unknown): Promise<T> {
		this.apiKey ??= await this.createApiKey();
		const { body: answer } = await request(
			`${this.origin}/api/v1${path}`,
			jsonInit(method, { 'x-n8n-api-key': this.apiKey }, body),
		);
		return answer as T;
	}

	private async createApiKey(): Promise<string> {
		const scopes = await this.rest<string[]>('GET', '/rest/api-keys/scopes');
		const key = await this.rest<{ rawApiKey: string }>('POST', '/rest/api-keys', {
			label: `local ${Date.now()}`,
			expiresAt: null,
			scopes,
		});
		return key.rawApiKey;
	}

	async createCredential(
		name: string,
		type: string,
		data: Record<string, unknown>,
	): Promise<string> {
		const created = await this.api<{ id: string }>('POST', '/credentials', { name, type, data });
		return created.id;
	}

	async createWorkflow(workflow: WorkflowDefinition): Promise<StoredWorkflow> {
		const { name, nodes, connections, settings } = workflow;
		return await this.api<StoredWorkflow>('POST', '/workflows', {
			name,
			nodes,
			connections,
			settings: settings ?? {},
		});
	}

	async getWorkflow(id: string): Promise<StoredWorkflow> {
		return await this.api<StoredWorkflow>('GET', `/workflows/${id}`);
	}

	/** Publishing is n8n 2.x's activation; it registers webhooks and pollers asynchronously. */
	async publishWorkflow(id: string): Promise<void> {
		await this.api('POST', `/workflows/${id}/publish`);
	}

	/** n8n 1.x's activation (2.x publishes instead). */
	async activateWorkflow(id: string): Promise<void> {
		await this.api('POST', `/workflows/${id}/activate`);
	}

	/** The executions of `workflowId`, or of every workflow when left out (at most 250). */
	async executions(workflowId?: string): Promise<ExecutionSummary[]> {
		const filter = workflowId === undefined ? '' : `workflowId=${encodeURIComponent(workflowId)}&`;
		const page = await this.api<{ data: ExecutionSummary[] }>(
			'GET',
			`/executions?${filter}limit=250`,
		);
		return page.data;
	}

	async execution(id: string): Promise<ExecutionDetail> {
		return await this.api<ExecutionDetail>('GET', `/executions/${id}?includeData=true`);
	}

	/** What the editor's "Execute workflow" button does: a manual run from the named trigger; returns the execution id. */
	async runManually(workflowId: string, triggerName: string): Promise<string> {
		const result = await this.rest<{ executionId?: string; waitingForWebhook?: boolean }>(
			'POST',
			`/rest/workflows/${workflowId}/run`,
			{ triggerToStartFrom: { name: triggerName } },
		);
		if (!result.executionId) throw new Error(`n8n started no execution: ${JSON.stringify(result)}`);
		return result.executionId;
	}

	/** n8n's own credential test, as the credential dialog's "Retry"/save runs it. */
	async testCredential(type: string, data: Record<string, unknown>): Promise<CredentialTestResult> {
		return await this.rest<CredentialTestResult>('POST', '/rest/credentials/test', {
			credentials: { id: '', name: 'credential test', type, data },
		});
	}

	async nodeTypes(): Promise<NodeTypeDescription[]> {
		return await this.rest<NodeTypeDescription[]>('GET', '/types/nodes.json');
	}

	async credentialTypes(): Promise<Array<{ name: string; displayName: string }>> {
		return await this.rest<Array<{ name: string; displayName: string }>>(
			'GET',
			'/types/credentials.json',
		);
	}
}
