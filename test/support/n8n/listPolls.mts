import type { RecordedRequest } from '../sandbox/index.mts';
import { waitFor } from './processes.mts';

/** How the suites that run the package's poll triggers in real n8n see the polls in the sandbox. */

/** Polls run every minute (n8n's shortest interval) at a random second: two fit in this. */
export const TWO_POLLS_MS = 150_000;
/** After a poll request, the time an execution it started needs to be listed. */
export const SETTLE_MS = 5_000;

/** A service's list, and the time (epoch ms) after which its polls count. */
export interface PolledList {
	service: 'performance' | 'security';
	path: string;
	since: number;
}

export function isListPoll(
	request: RecordedRequest,
	{ service, path, since }: PolledList,
): boolean {
	return (
		request.service === service &&
		request.method === 'GET' &&
		request.path === path &&
		request.at > since
	);
}

/**
 * Waits until the service saw a poll of the list after `list.since`. `requests` reads what the
 * sandbox recorded: in this process, or through its control API.
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
