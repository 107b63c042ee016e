import { randomUUID } from 'node:crypto';

import { signPayload } from '../sandbox/index.mts';
import { delay, waitFor } from '../n8n/processes.mts';
import { countFor, UNFINISHED } from './executionStore.mts';
import type { Counts, ExecutionRow, ExecutionStore } from './executionStore.mts';
import { percentile, sendAll } from './loadDriver.mts';
import type { Answer, Request } from './loadDriver.mts';
import { loadAverage, TreeMeter } from './processTree.mts';

/** One measured batch of signed deliveries and what it cost n8n, shared by the regular and queue-mode benchmarks. */

export const SECRET = 'whsec_bench_load_4b8e1d2c';
export const IN_FLIGHT = 50;

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

export interface BatchFigures {
	deliveries: number;
	answers: Record<string, number>;
	duplicateAnswers: number;
	/** CPU seconds of the measured processes from the first delivery until every execution had finished. */
	cpuSeconds: number;
	cpuMsPerDelivery: number;
	/** Until the last answer. */
	wallMs: number;
	/** Until every execution had finished. */
	drainMs: number;
	p50Ms: number;
	p99Ms: number;
	baselineRssBytes: number;
	peakRssBytes: number;
	counts: Counts;
	/** /proc/loadavg (1, 5, 15 minutes) before and after. */
	loadBefore: number[];
	loadAfter: number[];
}

/**
 * Sends the events (IN_FLIGHT at a time) and measures the CPU time and peak memory of the process
 * groups from the first delivery until every execution it started has finished; then counts the
 * executions per event once their number has settled (outside the measurement).
 */
export async function measureBatch(
	work: Workload,
	events: Event[],
	{ quietBeforeMs = 2000 } = {},
): Promise<BatchFigures> {
	const afterId = await work.store.maxId();
	await delay(quietBeforeMs);
	const loadBefore = loadAverage();
	const meter = new TreeMeter(work.pgids());
	const started = Date.now();
	meter.start();
	const load = await sendAll(events.length, requestsFor(work.urls, events), IN_FLIGHT);
	const acknowledged = load.answers.filter(is2xx).length;
	await finished(work, afterId, acknowledged);
	const tree = meter.stop();
	const drainMs = Date.now() - started;
	const loadAfter = loadAverage();
	const rows = await settled(work, afterId, acknowledged);
	const times = load.answers.map((answer) => answer.ms);
	return {
		deliveries: events.length,
		answers: statusCounts(load.answers),
		duplicateAnswers: duplicateAnswers(load.answers),
		cpuSeconds: tree.cpuSeconds,
		cpuMsPerDelivery: (tree.cpuSeconds * 1000) / events.length,
		wallMs: load.wallMs,
		drainMs,
		p50Ms: percentile(times, 50),
		p99Ms: percentile(times, 99),
		baselineRssBytes: tree.baselineRssBytes,
		peakRssBytes: tree.peakRssBytes,
		counts: countFor(
			rows,
			events.map((event) => event.id),
		),
		loadBefore,
		loadAfter,
	};
}

export interface SendFigures {
	answers: Record<string, number>;
	duplicateAnswers: number;
	/** Executions of these events started by this sending. */
	newExecutions: number;
	counts: Counts;
	wallMs: number;
}

/** Sends events without measuring CPU (fills, repeats, resends) and counts the executions they started. */
export async function sendAndCount(work: Workload, events: Event[]): Promise<SendFigures> {
	const afterId = await work.store.maxId();
	const load = await sendAll(events.length, requestsFor(work.urls, events), IN_FLIGHT);
	const acknowledged = load.answers.filter(is2xx).length - duplicateAnswers(load.answers);
	const rows = await settled(work, afterId, Math.max(0, acknowledged));
	const counts = countFor(
		rows,
		events.map((event) => event.id),
	);
	return {
		answers: statusCounts(load.answers),
		duplicateAnswers: duplicateAnswers(load.answers),
		newExecutions: counts.executions,
		counts,
		wallMs: load.wallMs,
	};
}
