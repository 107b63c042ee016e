import { randomUUID } from 'node:crypto';

import { signPayload } from '../sandbox/index.mts';
import { UNFINISHED } from './executionStore.mts';
import type { ExecutionRow, ExecutionStore } from './executionStore.mts';
import type { Answer, Request } from './loadDriver.mts';
import { delay, waitFor } from './processes.mts';

/**
 * Batches of signed events for the Performance Service Trigger in a real n8n, and the executions
 * they started (the contract suite and the load benchmarks).
 */

export const SECRET = 'whsec_bench_load_4b8e1d2c';

export interface Event {
	id: string;
	body: string;
}

export function newEvents(count: number): Event[] {
	return Array.from({ length: count }, () => {
		const id = `evt_${randomUUID()}`;
		const body = JSON.stringify({
			id,
			type: 'audit.completed',
			createdAt: new Date().toISOString(),
			data: { siteId: 'site_1', audit: { score: 72 } },
		});
		return { id, body };
	});
}

/** Signed at the moment it is sent, as each of the service's attempts is; the other nodes ignore the headers. */
export function signed(url: string, event: Event): Request {
	const timestamp = String(Math.floor(Date.now() / 1000));
	return {
		url,
		body: event.body,
		headers: {
			'content-type': 'application/json',
			'x-service-webhook-timestamp': timestamp,
			'x-service-webhook-signature': signPayload(SECRET, timestamp, event.body),
		},
	};
}

/** Requests for `events`, spread round-robin over the URLs (several webhook processes in queue mode). */
export function requestsFor(urls: string[], events: Event[]): (index: number) => Request {
	return (index) => signed(urls[index % urls.length], events[index]);
}

export function statusCounts(answers: Answer[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const answer of answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
	return counts;
}

export const is2xx = (answer: Answer): boolean => answer.status >= 200 && answer.status < 300;

export const duplicateAnswers = (answers: Answer[]): number =>
	answers.filter((answer) => answer.text.includes('"duplicate":true')).length;

export interface Workload {
	/** The workflow the deliveries start. */
	workflowId: string;
	/** Its production URL(s). */
	urls: string[];
	store: ExecutionStore;
	/** Process groups whose CPU and memory count (one n8n, or every process of a cluster). */
	pgids: () => number[];
}

/**
 * Waits until the workflow has at least `atLeast` executions newer than `afterId` and none of
 * them unfinished (`leftOver`: ids a killed n8n left unfinished for good).
 */
export async function finished(
	work: Workload,
	afterId: number,
	atLeast: number,
	{ intervalMs = 200, leftOver = new Set<number>() } = {},
): Promise<void> {
	await waitFor(
		`${atLeast} finished executions of workflow ${work.workflowId}`,
		async () => {
			if (leftOver.size > 0) {
				const rows = await work.store.executions(work.workflowId, afterId);
				const running = rows.some((row) => UNFINISHED.has(row.status) && !leftOver.has(row.id));
				return rows.length >= atLeast && !running ? true : undefined;
			}
			const counts = await work.store.statusCounts(work.workflowId, afterId);
			const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
			const running = [...UNFINISHED].some((status) => (counts[status] ?? 0) > 0);
			return total >= atLeast && !running ? true : undefined;
		},
		{ timeoutMs: 900_000, intervalMs },
	);
}

/** The executions newer than `afterId` once their number has stopped changing for `quietMs`. */
export async function settled(
	work: Workload,
	afterId: number,
	atLeast: number,
	{ quietMs = 2000, leftOver = new Set<number>() } = {},
): Promise<ExecutionRow[]> {
	await finished(work, afterId, atLeast, { intervalMs: 500, leftOver });
	let previous = -1;
	for (;;) {
		const rows = await work.store.executions(work.workflowId, afterId);
		const running = rows.some((row) => UNFINISHED.has(row.status) && !leftOver.has(row.id));
		if (rows.length === previous && !running) return rows;
		previous = rows.length;
		await delay(quietMs);
	}
}
