import type { N8nClient, NodeTypeDescription, StoredWorkflow, WorkflowNode } from './client.mts';
import { PERFORMANCE_TRIGGER } from './examples.mts';
import { waitFor } from './processes.mts';

/** The production URL n8n serves a webhook node at (n8n's getNodeWebhookPath for nodes with a webhookId). */
export function productionWebhookUrl(
	n8nOrigin: string,
	node: WorkflowNode,
	description: NodeTypeDescription,
): string {
	const hook = description.webhooks?.find((webhook) => webhook.httpMethod === 'POST');
	if (!hook) throw new Error(`${description.name} declares no POST webhook`);
	if (!node.webhookId) throw new Error(`Node "${node.name}" has no webhookId`);
	if (hook.path.startsWith('='))
		throw new Error(`${description.name} has an expression webhook path`);
	const path = hook.path.replace(/^\//, '');
	const full = hook.isFullPath ? path || node.webhookId : `${node.webhookId}/${path}`;
	return `${n8nOrigin}/webhook/${full}`;
}

export function performanceTriggerNode(workflow: StoredWorkflow): WorkflowNode {
	const node = workflow.nodes.find((candidate) => candidate.type === PERFORMANCE_TRIGGER);
	if (!node) throw new Error(`Workflow "${workflow.name}" has no Performance Service Trigger`);
	return node;
}

/** Events the trigger node listens to, as the sandbox's endpoint filter (undefined: all). */
export function triggerEvents(node: WorkflowNode): string[] | undefined {
	const events = node.parameters.events;
	if (!Array.isArray(events) || events.includes('*')) return undefined;
	return events.filter((event): event is string => typeof event === 'string');
}

/**
 * Publishing registers webhooks asynchronously. The probe is an OPTIONS request with an Origin,
 * which n8n answers with the methods registered for the path in Access-Control-Allow-Methods
 * (WebhookRequestHandler.setupCorsHeaders with WebhookService.getWebhookMethods, n8n 1.x and 2.x):
 * it runs no trigger, and n8n logs no "Received request for unknown webhook" as it does for a POST
 * to a path not registered yet.
 */
export async function waitForWebhook(url: string): Promise<void> {
	await waitFor(
		`the production webhook ${url}`,
		async () => {
			const response = await fetch(url, {
				method: 'OPTIONS',
				headers: { origin: new URL(url).origin },
			});
			await response.body?.cancel();
			const methods = response.headers.get('access-control-allow-methods') ?? '';
			return methods.split(/,\s*/).includes('POST') ? true : undefined;
		},
		{ timeoutMs: 30_000 },
	);
}

/** Tells the sandbox (control API) to deliver events to `url`; returns the endpoint id. */
export async function registerSandboxWebhook(
	controlUrl: string,
	url: string,
	events?: string[],
): Promise<string> {
	const response = await fetch(`${controlUrl}/webhooks`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(events ? { url, events } : { url }),
	});
	if (!response.ok)
		throw new Error(`Sandbox refused webhook ${url}: ${response.status} ${await response.text()}`);
	return ((await response.json()) as { id: string }).id;
}

export async function nodeDescription(
	client: N8nClient,
	type: string,
): Promise<NodeTypeDescription> {
	const descriptions = await client.nodeTypes();
	const found = descriptions.find((description) => description.name === type);
	if (!found) throw new Error(`n8n has not loaded node type ${type}`);
	return found;
}

/**
 * Publishes a workflow with a Performance Service Trigger and points the sandbox's deliveries at it;
 * `{ publish: false }` for one n8n already serves (the sandbox forgets its endpoints on restart).
 */
export async function publishWebhookWorkflow(
	client: N8nClient,
	controlUrl: string,
	workflow: StoredWorkflow,
	{ publish = true } = {},
): Promise<{ url: string; endpointId: string }> {
	const node = performanceTriggerNode(workflow);
	const url = productionWebhookUrl(
		client.origin,
		node,
		await nodeDescription(client, PERFORMANCE_TRIGGER),
	);
	if (publish) await client.publishWorkflow(workflow.id);
	await waitForWebhook(url);
	const endpointId = await registerSandboxWebhook(controlUrl, url, triggerEvents(node));
	return { url, endpointId };
}
