import type { RecordedRequest } from '../sandbox/index.mts';
import type { ExecutionSummary } from './client.mts';
import { waitFor } from './processes.mts';

/** How the suites that run the package's poll triggers in real n8n see the polls in the sandbox. */

/** Polls run every minute (n8n's shortest interval) at a random second: two fit in this. */
export const TWO_POLLS_MS = 150_000;
/** After a poll request, the time an execution it started needs to be listed. */
export const SETTLE_MS = 5_000;

/**
 * One poll trigger's reads of a service's list: the list, the token or key of the trigger's
 * credential (the service sees `Bearer <token>`), and the time (epoch ms) after which they count.
 * A suite picks the token, or the time, so that nothing but the trigger reads that list with it.
 */
export interface PolledList {
	service: 'performance' | 'security';
	path: string;
	token: string;
	since: number;
}

export function isListPoll(
	request: RecordedRequest,
	{ service, path, token, since }: PolledList,
): boolean {
	return (
		request.service === service &&
		request.method === 'GET' &&
		request.path === path &&
		request.headers.authorization === `Bearer ${token}` &&
		request.at > since
	);
}

/**
 * Waits until the trigger polled the list after `list.since`. `requests` reads what the sandbox
 * recorded: in this process, or through its control API.
 */
export async function waitForListPoll(
	requests: () => RecordedRequest[] | Promise<RecordedRequest[]>,
	list: PolledList,
): Promise<void> {
	await waitFor(
		`a poll of the ${list.service} service's ${list.path}`,
		async () =>
			(await requests()).some((request) => isListPoll(request, list)) ? true : undefined,
		{ timeoutMs: TWO_POLLS_MS, intervalMs: 1000 },
	);
}

/**
 * When the last of the executions a trigger started stopped: a poll after it is a later poll.
 * Throws when there is none, so that "a later poll starts nothing" cannot pass for a trigger
 * that never started anything.
 */
export function lastStopped(executions: ExecutionSummary[]): number {
	if (executions.length === 0) throw new Error('The trigger started no execution to poll after');
	return Math.max(
		...executions.map((execution) => Date.parse(execution.stoppedAt ?? execution.startedAt)),
	);
}
