import { randomUUID } from 'node:crypto';

import type { WorkflowDefinition, WorkflowNode } from './client.mts';
import {
	CREDENTIAL_NAMES,
	PERFORMANCE_POLL_TRIGGER,
	PERFORMANCE_TRIGGER,
	SECURITY_TRIGGER,
	SECURITY_WEBHOOK_TRIGGER,
} from './examples.mts';
import type { CredentialIds, CredentialType } from './examples.mts';
import { PACKAGE_NAME } from './paths.mts';

/** Small workflows the queue-mode and n8n 1.x suites run: one per kind of node in the package. */

export const ACTION_WEBHOOK_NODE = 'Run the action nodes';
export const PERFORMANCE_ACTION_NODE = 'Performance sites';
export const SECURITY_ACTION_NODE = 'Security sites';
export const DELIVERY_TRIGGER_NODE = 'Every performance event';
export const POLLER_NODE = 'New threat';
export const STATUS_POLLER_NODE = 'Site status changed';
export const RING_TRIGGER_NODE = 'New threat on a call';
/** In the query of the webhook trigger's list reads: the threat poller reads the same list with the same key. */
export const RING_READER = { name: 'reader', value: 'webhook-trigger' };

function credential(type: CredentialType, ids: CredentialIds): WorkflowNode['credentials'] {
	return { [type]: { id: ids[type], name: CREDENTIAL_NAMES[type] } };
}

/**
 * n8n's Webhook node (production URL `/webhook/<path>`) starting one operation of each action
 * node: Performance Service › Site › Get Many and Security Service › Site › Get Many.
 */
export function actionNodesWorkflow(
	ids: CredentialIds,
	path = randomUUID(),
): WorkflowDefinition & { path: string } {
	const siteGetAll = { resource: 'site', operation: 'getAll', returnAll: true };
	return {
		path,
		name: `Action nodes ${path}`,
		nodes: [
			{
				name: ACTION_WEBHOOK_NODE,
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: { httpMethod: 'POST', path, options: {} },
			},
			{
				name: PERFORMANCE_ACTION_NODE,
				type: `${PACKAGE_NAME}.performanceService`,
				typeVersion: 2,
				position: [260, -100],
				parameters: siteGetAll,
				credentials: credential('performanceServiceApi', ids),
			},
			{
				name: SECURITY_ACTION_NODE,
				type: `${PACKAGE_NAME}.securityService`,
				typeVersion: 1,
				position: [260, 100],
				parameters: siteGetAll,
				credentials: credential('securityServiceApi', ids),
			},
		],
		connections: {
			[ACTION_WEBHOOK_NODE]: {
				main: [
					[
						{ node: PERFORMANCE_ACTION_NODE, type: 'main', index: 0 },
						{ node: SECURITY_ACTION_NODE, type: 'main', index: 0 },
					],
				],
			},
		},
		settings: { executionOrder: 'v1' },
	};
}

/** A Performance Service Trigger for every event type, with nothing after it. */
export function deliveryTriggerWorkflow(ids: CredentialIds): WorkflowDefinition {
	return {
		name: `Every performance event ${randomUUID()}`,
		nodes: [
			{
				name: DELIVERY_TRIGGER_NODE,
				type: PERFORMANCE_TRIGGER,
				typeVersion: 1.1,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: { events: ['*'], options: {} },
				credentials: credential('performanceServiceApi', ids),
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

/** A Security Service Webhook Trigger for new threats, its list reads marked with RING_READER. */
export function threatWebhookTriggerWorkflow(ids: CredentialIds): WorkflowDefinition {
	return {
		name: `New threats on a call ${randomUUID()}`,
		nodes: [
			{
				name: RING_TRIGGER_NODE,
				type: SECURITY_WEBHOOK_TRIGGER,
				typeVersion: 1,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: { event: 'newThreat', queryParameters: { parameters: [RING_READER] } },
				credentials: credential('securityServiceApi', ids),
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

/** One poll trigger of the package, polling every minute (n8n's shortest interval), alone in a workflow. */
function pollerWorkflow(
	name: string,
	node: { name: string; type: string; event: string; credentialType: CredentialType },
	ids: CredentialIds,
): WorkflowDefinition {
	return {
		name: `${name} ${randomUUID()}`,
		nodes: [
			{
				name: node.name,
				type: node.type,
				typeVersion: 1,
				position: [0, 0],
				parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] }, event: node.event },
				credentials: credential(node.credentialType, ids),
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

/** A Security Service Trigger polling for new threats. */
export function threatPollerWorkflow(ids: CredentialIds): WorkflowDefinition {
	const node = { name: POLLER_NODE, type: SECURITY_TRIGGER, event: 'newThreat' };
	return pollerWorkflow('New threats', { ...node, credentialType: 'securityServiceApi' }, ids);
}

/** A Performance Service Poll Trigger watching site statuses. */
export function siteStatusPollerWorkflow(ids: CredentialIds): WorkflowDefinition {
	const node = {
		name: STATUS_POLLER_NODE,
		type: PERFORMANCE_POLL_TRIGGER,
		event: 'siteStatusChanged',
	};
	return pollerWorkflow(
		'Site status changes',
		{ ...node, credentialType: 'performanceServiceApi' },
		ids,
	);
}
