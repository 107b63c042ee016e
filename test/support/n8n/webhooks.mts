import { POLL_EVENTS } from '../../../nodes/SecurityService/pollTrigger/events.ts';
import { SECURITY_EVENT_RESOURCES, SECURITY_EVENT_TYPES } from '../sandbox/securityEvents.mts';
import type { N8nClient, NodeTypeDescription, StoredWorkflow, WorkflowNode } from './client.mts';
import { PERFORMANCE_TRIGGER, SECURITY_WEBHOOK_TRIGGER } from './examples.mts';
import { waitFor } from './processes.mts';

/** This package's webhook triggers: the sandbox's performance or security service calls them. */
const WEBHOOK_TRIGGERS = [PERFORMANCE_TRIGGER, SECURITY_WEBHOOK_TRIGGER];

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

function triggerNode(workflow: StoredWorkflow, types: string[], what: string): WorkflowNode {
	const node = workflow.nodes.find((candidate) => types.includes(candidate.type));
	if (!node) throw new Error(`Workflow "${workflow.name}" has no ${what}`);
	return node;
}

export function performanceTriggerNode(workflow: StoredWorkflow): WorkflowNode {
	return triggerNode(workflow, [PERFORMANCE_TRIGGER], 'Performance Service Trigger');
}

export function hasWebhookTrigger(workflow: StoredWorkflow): boolean {
	return workflow.nodes.some((node) => WEBHOOK_TRIGGERS.includes(node.type));
}

/** Events the trigger node listens to, as the sandbox's endpoint filter (undefined: all). */
export function triggerEvents(node: WorkflowNode): string[] | undefined {
	const events = node.parameters.events;
	if (!Array.isArray(events) || events.includes('*')) return undefined;
	return events.filter((event): event is string => typeof event === 'string');
}

/** The security events about the list a Security Service Webhook Trigger reads (`threat.detected` for newThreat). */
function securityTriggerEvents(node: WorkflowNode): string[] {
	const event = POLL_EVENTS.find((candidate) => candidate.value === node.parameters.event);
	if (!event) throw new Error(`Node "${node.name}" has no known event`);
	return SECURITY_EVENT_TYPES.filter((type) => `/${SECURITY_EVENT_RESOURCES[type]}` === event.path);
}

/** Where the sandbox's control API registers the trigger's URL, and the events it sends there. */
function sandboxEndpoint(node: WorkflowNode): { path: string; events?: string[] } {
	return node.type === SECURITY_WEBHOOK_TRIGGER
		? { path: '/security/webhooks', events: securityTriggerEvents(node) }
		: { path: '/webhooks', events: triggerEvents(node) };
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

/**
 * n8n serves a webhook's URL before it calls the node's `create` and saves the static data
 * (ActiveWorkflowManager.addWebhooks, n8n 2.x): the Security Service Webhook Trigger is published
 * once the list it remembers is saved.
 */
async function waitForListMemory(
	client: N8nClient,
	workflowId: string,
	node: WorkflowNode,
): Promise<void> {
	await waitFor(`the list memory of "${node.name}"`, async () => {
		const { staticData } = await client.getWorkflow(workflowId);
		return staticData?.[`node:${node.name}`] === undefined ? undefined : true;
	});
}

/**
 * Tells the sandbox (control API) to deliver events to `url`; returns the endpoint id. `path`:
 * `/security/webhooks` for the security service's.
 */
export async function registerSandboxWebhook(
	controlUrl: string,
	url: string,
	events?: string[],
	path = '/webhooks',
): Promise<string> {
	const response = await fetch(`${controlUrl}${path}`, {
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
 * Publishes a workflow with one of the package's webhook triggers and points the sandbox's
 * deliveries at it; `{ publish: false }` for one n8n already serves (the sandbox forgets its
 * endpoints on restart).
 */
export async function publishWebhookWorkflow(
	client: N8nClient,
	controlUrl: string,
	workflow: StoredWorkflow,
	{ publish = true } = {},
): Promise<{ url: string; endpointId: string }> {
	const node = triggerNode(workflow, WEBHOOK_TRIGGERS, 'webhook trigger of this package');
	const url = productionWebhookUrl(client.origin, node, await nodeDescription(client, node.type));
	if (publish) await client.publishWorkflow(workflow.id);
	await waitForWebhook(url);
	if (node.type === SECURITY_WEBHOOK_TRIGGER) await waitForListMemory(client, workflow.id, node);
	const { path, events } = sandboxEndpoint(node);
	const endpointId = await registerSandboxWebhook(controlUrl, url, events, path);
	return { url, endpointId };
}
