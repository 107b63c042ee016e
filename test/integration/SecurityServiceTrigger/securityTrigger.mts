import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { triggerPoller, type PollRun } from '../../support/harness/runPoll.mts';
import { withSandbox } from '../../support/harness/sandbox.mts';
import type { SandboxOptions } from '../../support/sandbox/index.mts';

/** The trigger's name in the test workflows; its static data is kept under `node:<name>`. */
export const NODE_NAME = 'Security Trigger';

/** The trigger's parameters for new threats. */
export const threats = { event: 'newThreat' };

/**
 * Starts a sandbox for the calling test file (see withSandbox) and returns it with `credentials`,
 * the trigger's credential against it (with `credentialFields` laid over), and `poll`, which runs
 * one poll of the Security Service Trigger through n8n's engine (see runPoll).
 */
export function triggerSandbox(
	options: SandboxOptions = {},
	credentialFields: ICredentialDataDecryptedObject = {},
) {
	const sandbox = withSandbox(options);
	const credentials = (baseUrl = sandbox.securityUrl) => ({
		securityServiceApi: { baseUrl, apiKey: sandbox.securityKey, ...credentialFields },
	});
	const poll = triggerPoller(
		'securityServiceTrigger',
		'securityServiceApi',
		NODE_NAME,
		credentials,
	);
	return { sandbox, credentials, poll };
}

/** The IDs of the records a poll emitted, in order. */
export function ids(run: PollRun): string[] {
	return run.items.map((item) => item.json.id as string);
}

/** The IDs the trigger remembers in saved static data. */
export function memoryIds(staticData: IDataObject | undefined): string[] {
	const node = staticData?.[`node:${NODE_NAME}`] as { seen?: { seenIds: string[] } } | undefined;
	return node?.seen?.seenIds ?? [];
}
