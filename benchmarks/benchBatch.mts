import { countFor } from '../test/support/n8n/executionStore.mts';
import type { Counts } from '../test/support/n8n/executionStore.mts';
import {
	duplicateAnswers,
	finished,
	is2xx,
	requestsFor,
	settled,
	statusCounts,
} from '../test/support/n8n/eventBatch.mts';
import type { Event, Workload } from '../test/support/n8n/eventBatch.mts';
import { percentile, sendAll } from '../test/support/n8n/loadDriver.mts';
import { delay } from '../test/support/n8n/processes.mts';
import { loadAverage, TreeMeter } from './processMeter.mts';

/** One measured batch of signed deliveries and what it cost n8n, shared by the regular and queue-mode benchmarks. */

export const IN_FLIGHT = 50;

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
