import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { WorkflowDefinition, WorkflowNode } from './client.mts';
import { EXAMPLES_DIR, PACKAGE_NAME } from './paths.mts';

/** The sandbox address the example files use for the chat incoming-webhook URL (the CLI's default port). */
export const EXAMPLE_SANDBOX_ORIGIN = 'http://127.0.0.1:5680';

/** The credential names the examples refer to; n8n matches a missing credential id by type and name. */
export const CREDENTIAL_NAMES = {
	performanceServiceApi: 'Performance Service account',
	securityServiceApi: 'Security Service account',
} as const;
export type CredentialType = keyof typeof CREDENTIAL_NAMES;
export type CredentialIds = Record<CredentialType, string>;

export const EXAMPLE_FILES = {
	scheduledReoptimize: 'scheduled-reoptimize.json',
	performanceAlerts: 'performance-alerts-to-chat.json',
	threatTriage: 'threat-triage.json',
	siteHealthAlerts: 'site-health-alerts-without-public-url.json',
	instantThreatAlerts: 'instant-threat-alerts.json',
} as const;
export type ExampleKey = keyof typeof EXAMPLE_FILES;

export const PERFORMANCE_TRIGGER = `${PACKAGE_NAME}.performanceServiceTrigger`;
export const PERFORMANCE_POLL_TRIGGER = `${PACKAGE_NAME}.performanceServicePollTrigger`;
export const SECURITY_TRIGGER = `${PACKAGE_NAME}.securityServiceTrigger`;
export const SECURITY_WEBHOOK_TRIGGER = `${PACKAGE_NAME}.securityServiceWebhookTrigger`;

export function readExample(key: ExampleKey): WorkflowDefinition {
	return JSON.parse(
		readFileSync(path.join(EXAMPLES_DIR, EXAMPLE_FILES[key]), 'utf8'),
	) as WorkflowDefinition;
}

function replaceOrigin(value: unknown, origin: string): unknown {
	if (typeof value === 'string') return value.split(EXAMPLE_SANDBOX_ORIGIN).join(origin);
	if (Array.isArray(value)) return value.map((entry) => replaceOrigin(entry, origin));
	if (value !== null && typeof value === 'object') {
		return Object.fromEntries(
			Object.entries(value).map(([key, entry]) => [key, replaceOrigin(entry, origin)]),
		);
	}
	return value;
}

function withCredentialIds(node: WorkflowNode, ids: CredentialIds): WorkflowNode {
	if (!node.credentials) return node;
	const credentials = Object.fromEntries(
		Object.entries(node.credentials).map(([type, reference]) => {
			const id = ids[type as CredentialType];
			return [type, id ? { id, name: CREDENTIAL_NAMES[type as CredentialType] } : reference];
		}),
	);
	return { ...node, credentials };
}

/** An example pointed at a running sandbox and at the credentials created for it. */
export function adaptWorkflow(
	workflow: WorkflowDefinition,
	sandboxOrigin: string,
	ids: CredentialIds,
): WorkflowDefinition {
	const nodes = workflow.nodes.map((node) =>
		withCredentialIds(replaceOrigin(node, sandboxOrigin) as WorkflowNode, ids),
	);
	return { ...workflow, nodes };
}

export function hasPackageTrigger(workflow: WorkflowDefinition): boolean {
	const triggers = [
		PERFORMANCE_TRIGGER,
		PERFORMANCE_POLL_TRIGGER,
		SECURITY_TRIGGER,
		SECURITY_WEBHOOK_TRIGGER,
	];
	return workflow.nodes.some((node) => triggers.includes(node.type));
}
