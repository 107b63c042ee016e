import type { SecurityEvent } from '../sandbox/index.mts';
import type { ExecutionSummary, N8nClient } from './client.mts';
import { waitFor } from './processes.mts';

export interface RingOutcome {
	/** The threat the sandbox added and called about. */
	threatId: string;
	/** What the webhook URLs answered the call about it. */
	statuses: number[];
	/** The executions of the workflow that started since the call (at least one). */
	started: ExecutionSummary[];
}

/**
 * Makes the sandbox's security service add a threat and call its webhooks about it
 * (`POST <control>/security/ring` with `body`, as the curl in `npm start`'s summary does), waits
 * until the call is answered and `workflowId` has a new execution, and returns the new ones. n8n
 * answers the call of a Security Service Webhook Trigger once the execution exists, and one call
 * starts at most one: any other would come from another call.
 */
export async function ringAboutNewThreat(
	client: N8nClient,
	ringUrl: string,
	body: string,
	workflowId: string,
): Promise<RingOutcome> {
	const before = new Set((await client.executions(workflowId)).map((execution) => execution.id));
	const response = await fetch(ringUrl, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body,
	});
	if (response.status !== 202)
		throw new Error(`The sandbox refused the ring: ${response.status} ${await response.text()}`);
	const [event] = ((await response.json()) as { events: SecurityEvent[] }).events;
	const threatId = String(event.data.threatId);
	const deliveriesUrl = ringUrl.replace(/\/ring$/, '/deliveries');
	const statuses = await waitFor(`the call about ${threatId} to be answered`, async () => {
		const { deliveries } = (await (await fetch(deliveriesUrl)).json()) as {
			deliveries: Array<{ eventId: string; status: number }>;
		};
		const answered = deliveries.filter((delivery) => delivery.eventId === event.id);
		return answered.length > 0 ? answered.map((delivery) => delivery.status) : undefined;
	});
	if (statuses.some((status) => status < 200 || status > 299))
		return { threatId, statuses, started: [] };
	// n8n's public API lists an execution once it stopped running (ExecutionService.findManyAndCount).
	const started = await waitFor(`the execution of ${workflowId} the call started`, async () => {
		const found = (await client.executions(workflowId)).filter(
			(execution) => !before.has(execution.id),
		);
		return found.length > 0 ? found : undefined;
	});
	return { threatId, statuses, started };
}
