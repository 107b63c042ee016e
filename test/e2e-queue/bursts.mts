import { randomUUID } from 'node:crypto';

import { executionDetails, FINISHED, nodeOutput } from '../e2e/executions.mts';
import type { N8nClient } from '../support/n8n/client.mts';
import { postDelivery, signDelivery } from '../support/n8n/deliveries.mts';
import type { Delivery } from '../support/n8n/deliveries.mts';
import { delay, waitFor } from '../support/n8n/processes.mts';
import { DELIVERY_TRIGGER_NODE } from '../support/n8n/testWorkflows.mts';

/** Attempts the service makes at one delivery (performance-service-api.md: up to 5, backing off). */
const ATTEMPTS = 5;
/** The pause before the second attempt; it doubles before each further one. */
const FIRST_PAUSE_MS = 500;

/** What the service saw of one event's delivery. */
export interface Outcome {
	eventId: string;
	/** Each attempt's status (0: no answer at all). */
	statuses: number[];
	/** The body of the last answer. */
	text: string;
}

const is2xx = (status: number): boolean => status >= 200 && status < 300;

/** The service got a 2xx for the event (on its last attempt: it stops at the first). */
export const acknowledged = (outcome: Outcome): boolean => is2xx(outcome.statuses.at(-1) ?? 0);

/** Its first attempt failed, so the service sent it again. */
export const retried = (outcome: Outcome): boolean => outcome.statuses.length > 1;

/** The trigger's answer to a repeat of an event it started: 200 `{"received":true,"duplicate":true}`. */
export function saysDuplicate(text: string): boolean {
	try {
		const body = JSON.parse(text) as unknown;
		return (
			typeof body === 'object' && body !== null && 'duplicate' in body && body.duplicate === true
		);
	} catch {
		return false;
	}
}

/**
 * Delivers the events to `url` as the service does: `inFlight` at a time, each attempt signed
 * afresh, an event without a 2xx sent again after a pause that doubles, up to ATTEMPTS times.
 * `onAcknowledged` hears the running count of acknowledged events, as each one is.
 */
export async function deliverAsService(
	url: string,
	secret: string,
	events: Delivery[],
	{ inFlight, onAcknowledged }: { inFlight: number; onAcknowledged?: (count: number) => void },
): Promise<Outcome[]> {
	const outcomes = events.map(({ eventId }): Outcome => ({ eventId, statuses: [], text: '' }));
	let next = 0;
	let acknowledgedCount = 0;
	const sender = async (): Promise<void> => {
		while (next < events.length) {
			const index = next++;
			const { body } = events[index];
			const outcome = outcomes[index];
			for (let attempt = 1; attempt <= ATTEMPTS && !acknowledged(outcome); attempt++) {
				if (attempt > 1) await delay(FIRST_PAUSE_MS * 2 ** (attempt - 2));
				const answer = await postDelivery(url, { body, headers: signDelivery(secret, body) }).catch(
					() => ({ status: 0, text: '' }),
				);
				outcome.statuses.push(answer.status);
				outcome.text = answer.text;
			}
			if (acknowledged(outcome)) onAcknowledged?.(++acknowledgedCount);
		}
	};
	await Promise.all(Array.from({ length: inFlight }, sender));
	return outcomes;
}

/**
 * Calls the Security Service Webhook Trigger's `url` `count` times at once with one body as the
 * service sends it (the trigger never reads it); resolves to each call's status (0: no answer).
 */
export async function ringAtOnce(url: string, count: number): Promise<number[]> {
	const body = JSON.stringify({
		id: `evt_${randomUUID()}`,
		event: 'threat.detected',
		createdAt: new Date().toISOString(),
		data: {},
	});
	const ring = async (): Promise<number> => {
		const answer = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body,
		});
		await answer.body?.cancel();
		return answer.status;
	};
	return await Promise.all(Array.from({ length: count }, () => ring().catch(() => 0)));
}

/** How long an execution must stay queued-and-untouched to count as left behind by a killed process. */
const LEFT_BEHIND_MS = 15_000;

export interface EventExecutions {
	/** Finished executions per event id: the runs each event started. */
	counts: Map<unknown, number>;
	/** Executions that never ran: created by a webhook process killed before it queued them. */
	leftBehind: number;
}

/**
 * Waits until the delivery trigger workflow has at least `atLeast` finished executions and no
 * other is running or still changing, and counts the finished ones by the event each started with.
 * An execution still `new` after LEFT_BEHIND_MS, once the rest finished, never ran: a process
 * killed between creating it and queueing it leaves it so (its event's retry runs elsewhere).
 */
export async function executionsPerEvent(
	client: N8nClient,
	workflowId: string,
	atLeast: number,
): Promise<EventExecutions> {
	let unfinishedSince = new Map<string, number>();
	const finished = await waitFor(
		`${atLeast} finished executions of workflow ${workflowId}, none running`,
		async () => {
			const executions = await client.executions(workflowId);
			const done = executions.filter((execution) => FINISHED.has(execution.status));
			const rest = executions.filter((execution) => !FINISHED.has(execution.status));
			const now = Date.now();
			unfinishedSince = new Map(
				rest.map((execution) => [
					`${execution.id}:${execution.status}`,
					unfinishedSince.get(`${execution.id}:${execution.status}`) ?? now,
				]),
			);
			const onlyLeftBehind = rest.every(
				(execution) =>
					execution.status === 'new' &&
					now - (unfinishedSince.get(`${execution.id}:new`) ?? now) >= LEFT_BEHIND_MS,
			);
			return done.length >= atLeast && onlyLeftBehind ? { done, rest: rest.length } : undefined;
		},
		{ timeoutMs: 120_000, intervalMs: 500 },
	);
	const counts = new Map<unknown, number>();
	for (const execution of await executionDetails(client, finished.done))
		for (const { id } of nodeOutput(execution, DELIVERY_TRIGGER_NODE))
			counts.set(id, (counts.get(id) ?? 0) + 1);
	return { counts, leftBehind: finished.rest };
}
