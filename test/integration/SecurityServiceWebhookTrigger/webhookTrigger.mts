import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INodeParameters,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { afterEach, beforeEach } from 'vitest';

import { nodes } from '../../../nodes/SecurityService/webhookTrigger/rings.ts';
import {
	activateWebhook,
	startWebhookListener,
	type WebhookListener,
	type WebhookSetup,
} from '../../support/harness/runWebhook.mts';
import { packageNode } from '../../support/harness/runWorkflow.mts';
import { requestsTo } from '../../support/harness/sandbox.mts';
import type { Sandbox, SandboxOptions } from '../../support/sandbox/index.mts';
import { triggerSandbox } from '../SecurityServiceTrigger/securityTrigger.mts';

/** The webhook trigger's name in the test workflows; its static data is kept under `node:<name>`. */
export const TRIGGER = 'Security Webhook Trigger';

/** A ring as the security service sends it. */
export const SERVICE_RING = '{"id":"evt_1","event":"threat.detected","data":{}}';

/**
 * Starts a sandbox for the calling test file (with the Security Service Trigger's `poll` against
 * it, see securityTrigger.mts) and helpers to publish the webhook trigger and ring it over HTTP.
 * Each test starts as a new process: the trigger's memory in this process is forgotten.
 */
export function webhookTriggerSandbox(
	options: SandboxOptions = {},
	credentialFields: ICredentialDataDecryptedObject = {},
) {
	const { sandbox, credentials, poll } = triggerSandbox(options, credentialFields);
	const listeners: WebhookListener[] = [];
	beforeEach(() => forgetProcessMemory());
	afterEach(async () => {
		await Promise.all(listeners.splice(0).map((listener) => listener.close()));
	});

	/** A workflow of the trigger alone, with static data saved as n8n's database would. */
	function setupFor(
		parameters: INodeParameters = { event: 'newThreat' },
		mode?: WorkflowExecuteMode,
	): WebhookSetup {
		const trigger = packageNode('securityServiceWebhookTrigger', parameters, {
			name: TRIGGER,
			credentials: ['securityServiceApi'],
		});
		return {
			workflow: { nodes: [trigger], connections: {} },
			credentials: credentials(),
			mode,
			staticData: { saved: {} },
		};
	}

	/** Listens on the workflow's webhook URL; closed after the test. */
	async function listen(setup: WebhookSetup): Promise<WebhookListener> {
		const listener = await startWebhookListener(setup);
		listeners.push(listener);
		return listener;
	}

	/** Publishes the workflow (webhookMethods checkExists, create) and listens on its URL. */
	async function publish(parameters?: INodeParameters) {
		const setup = setupFor(parameters);
		await activateWebhook(setup);
		return { setup, listener: await listen(setup) };
	}

	return { sandbox, credentials, poll, setupFor, listen, publish };
}

/** What a restart of n8n does to the trigger: this process's memory of every node is gone. */
export function forgetProcessMemory(): void {
	nodes.clear();
}

/** Calls the webhook the way the security service (or anyone) does; the answer's status and JSON body. */
export async function ring(
	listener: WebhookListener,
	body: string = SERVICE_RING,
	headers: Record<string, string> = { 'content-type': 'application/json' },
): Promise<{ status: number; body: unknown }> {
	const answer = await fetch(listener.url, { method: 'POST', body, headers });
	return { status: answer.status, body: await answer.json() };
}

/** The IDs of the records all runs of the workflow received, in order. */
export function emittedIds(listener: WebhookListener): string[] {
	return emittedItems(listener).map((item) => item.json.id as string);
}

export function emittedItems(listener: WebhookListener) {
	return listener.runs().flatMap((run) => run.output(TRIGGER));
}

/** The trigger's memory in the saved static data. */
export function savedMemory(
	listener: Pick<WebhookListener, 'staticData'>,
): IDataObject | undefined {
	const node = listener.staticData.saved[`node:${TRIGGER}`] as IDataObject | undefined;
	return node?.seen as IDataObject | undefined;
}

/** The list reads (GET requests) the security service received. */
export function listReads(sandbox: Sandbox) {
	return requestsTo(sandbox, 'security').filter((request) => request.method === 'GET');
}
