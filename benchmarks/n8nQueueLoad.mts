/**
 * `npm run bench:n8n:queue`: the Performance Service Trigger's cost in n8n's queue mode (2.41.1):
 * Postgres and Redis on loopback ports, one main, one worker and two `n8n webhook` processes
 * sharing a user folder with this package and the benchmark's minimal trigger installed (as in
 * test/e2e-queue/cluster.mts). Deliveries go round-robin to the two webhook processes.
 *
 * After BENCH_PREFILL (5,000) distinct signed deliveries to one trigger workflow (then 30 of them
 * spread over the pre-fill and its last 20 sent again to both webhook processes: new executions
 * there are events started twice), rounds
 * (BENCH_ROUNDS, 2) alternate five measured batches of BENCH_DELIVERIES (500), 50 in flight:
 * the trigger fresh (a new workflow each round), the trigger pre-filled, the minimal trigger, the
 * durable floor and the durable floor keeping 5,000 digests (benchPackages.mts).
 * For each: CPU seconds of every n8n process (main, worker, both webhook processes, their task
 * runners) until every execution has finished, wall time, p99 answer time, peak RSS of all of
 * them, executions per event (from Postgres), /proc/loadavg before and after.
 *
 * Settings: lazy isolates (N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true) unless BENCH_QUEUE_DEFAULTS=1;
 * BENCH_N8N_ENV adds n8n settings (JSON); BENCH_PACKAGE_DIR as for bench:n8n; BENCH_OUTPUT
 * (bench-n8n-queue.json in test-artifacts/, or an absolute path).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { N8nClient } from '../test/support/n8n/client.mts';
import { ensureN8nInstalled } from '../test/support/n8n/install.mts';
import { startN8n } from '../test/support/n8n/instance.mts';
import type { N8nInstance, N8nOptions } from '../test/support/n8n/instance.mts';
import { startPostgres } from '../test/support/n8n/postgres.mts';
import type { Postgres } from '../test/support/n8n/postgres.mts';
import { progress } from '../test/support/n8n/progress.mts';
import { QUEUE_WEBHOOK_PROCESSES, queueProcesses } from '../test/support/n8n/queueProcesses.mts';
import { startRedis } from '../test/support/n8n/redis.mts';
import type { Redis } from '../test/support/n8n/redis.mts';
import { newEvents } from '../test/support/n8n/eventBatch.mts';
import type { Event, Workload } from '../test/support/n8n/eventBatch.mts';
import { IN_FLIGHT, measureBatch, sendAndCount } from './benchBatch.mts';
import type { BatchFigures, SendFigures } from './benchBatch.mts';
import {
	createBenchCredential,
	publishBenchWorkflow,
	TRIGGER_START_LABELS,
	TRIGGER_STARTS,
	TRIGGER_VERSION,
} from './benchInstances.mts';
import type { StartKind, TriggerStart } from './benchInstances.mts';
import { installTarballs } from '../test/support/n8n/communityPackage.mts';
import { minimalTriggerTarball, packageTarball } from './benchPackages.mts';
import {
	compareRounds,
	comparisonTable,
	executionsCell,
	loadCell,
	mib,
	ms,
	packageSource,
	seconds,
	showSpread,
	spread,
	table,
	writeFigures,
} from './benchReport.mts';
import type { Comparison } from './benchReport.mts';
import { postgresStore } from '../test/support/n8n/executionStore.mts';
import type { ExecutionStore } from '../test/support/n8n/executionStore.mts';
import { listeningPid, processGroupOf } from '../test/support/n8n/procfs.mts';
import { loadAverage } from './processMeter.mts';

const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const PREFILL = Number(process.env.BENCH_PREFILL ?? 5000);
const PACKAGE_DIR = process.env.BENCH_PACKAGE_DIR || undefined;
const OUTPUT = process.env.BENCH_OUTPUT ?? 'bench-n8n-queue.json';
const DEFAULTS = process.env.BENCH_QUEUE_DEFAULTS === '1';
const N8N_ENV: Record<string, string> = {
	...(JSON.parse(process.env.BENCH_N8N_ENV ?? '{}') as Record<string, string>),
	...(DEFAULTS ? {} : { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' }),
};
const OWNER = {
	email: 'bench@example.com',
	firstName: 'Bench',
	lastName: 'Owner',
	password: 'Bench-Owner-1',
};

/** Pre-fill events sent again spread over it, and the last ones sent again. */
const SPREAD = 30;
const TAIL = 20;

/** SPREAD events evenly spread over `events`, the first and the last among them. */
function spreadOver(events: Event[]): Event[] {
	const step = (events.length - 1) / Math.max(1, SPREAD - 1);
	const indexes = new Set(Array.from({ length: SPREAD }, (_unused, k) => Math.round(k * step)));
	return [...indexes].map((index) => events[index]);
}

/**
 * Each event twice in a row: deliveries go round-robin to the two webhook processes, so each
 * event also reaches the process that did not take it the first time.
 */
function toBothProcesses(events: Event[]): Event[] {
	return events.flatMap((event) => [event, event]);
}

type Start = TriggerStart;
const STARTS: readonly Start[] = TRIGGER_STARTS;
const LABELS = TRIGGER_START_LABELS;

interface Cluster {
	main: N8nInstance;
	worker: N8nInstance;
	webhooks: N8nInstance[];
	/** Ports each process listens on (the worker: its health-check port), to find its process group. */
	ports: number[];
	client: N8nClient;
	credentialId: string;
	store: ExecutionStore;
}

/** Stops what was started, newest first; keeps going when one fails. */
const stops: Array<() => Promise<void>> = [];
async function stopAll(): Promise<void> {
	for (const stop of stops.splice(0).reverse()) await stop().catch(() => undefined);
}

async function startCluster(installDir: string, tarballs: string[]): Promise<Cluster> {
	const userFolder = mkdtempSync(path.join(os.tmpdir(), 'n8n-bench-queue-'));
	stops.push(async () => rmSync(userFolder, { recursive: true, force: true }));
	const starting = [startPostgres(), startRedis()] as const;
	const settledStarts = await Promise.allSettled(starting);
	for (const settledStart of settledStarts)
		if (settledStart.status === 'fulfilled') stops.push(() => settledStart.value.stop());
	const [postgres, redis] = (await Promise.all(starting)) as [Postgres, Redis];
	await installTarballs(userFolder, tarballs);
	const processes = await queueProcesses({
		installDir,
		userFolder,
		postgres,
		redis,
		env: N8N_ENV,
	});
	const start = async (options: N8nOptions): Promise<N8nInstance> => {
		const instance = await startN8n(options);
		stops.push(() => instance.stop());
		return instance;
	};
	const main = await start(processes.main);
	const client = await N8nClient.setupOwner(main.origin, OWNER);
	const credentialId = await createBenchCredential(client);
	const worker = await start(processes.worker);
	const webhooks: N8nInstance[] = [];
	for (const options of processes.webhooks) webhooks.push(await start(options));
	const store = await postgresStore(installDir, postgres.n8nEnv);
	stops.push(() => store.close());
	return {
		main,
		worker,
		webhooks,
		ports: [main.port, processes.workerHealthPort, ...webhooks.map((instance) => instance.port)],
		client,
		credentialId,
		store,
	};
}

function groupsOf(cluster: Cluster): number[] {
	return cluster.ports.map((port) => {
		const pid = listeningPid(port);
		if (pid === undefined) throw new Error(`No process listens on port ${port}`);
		return processGroupOf(pid);
	});
}

async function workload(cluster: Cluster, kind: StartKind, pgids: number[]): Promise<Workload> {
	const { workflowId, urls } = await publishBenchWorkflow(
		cluster.client,
		cluster.webhooks.map((instance) => instance.origin),
		kind,
		cluster.credentialId,
	);
	return { workflowId, urls, store: cluster.store, pgids: () => pgids };
}

function describe(batch: BatchFigures): string {
	return `${seconds(batch.cpuSeconds)} CPU (${batch.cpuMsPerDelivery.toFixed(1)} ms per delivery), wall ${ms(batch.wallMs)}, p99 ${ms(batch.p99Ms)}, peak ${mib(batch.peakRssBytes)}, answers ${JSON.stringify(batch.answers)}, executions ${batch.counts.executions} (missing ${batch.counts.missing}, doubled ${batch.counts.doubled}), load ${loadCell(batch)}`;
}

async function main(): Promise<void> {
	const startedAt = Date.now();
	const loadAtStart = loadAverage();
	const installDir = await ensureN8nInstalled();
	const scratch = mkdtempSync(path.join(os.tmpdir(), 'n8n-bench-packages-'));
	stops.push(async () => rmSync(scratch, { recursive: true, force: true }));
	const result: Record<string, unknown> = {
		at: new Date().toISOString(),
		cpus: os.cpus().length,
		package: packageSource(PACKAGE_DIR),
		triggerVersion: TRIGGER_VERSION,
		n8nEnv: N8N_ENV,
		mode: `queue: main, worker, ${QUEUE_WEBHOOK_PROCESSES} webhook processes, Postgres, Redis`,
		deliveries: DELIVERIES,
		inFlight: IN_FLIGHT,
		rounds: ROUNDS,
		prefill: PREFILL,
	};
	let report = '';
	try {
		progress('Packing the package and the minimal trigger ...');
		const tarballs = [
			await packageTarball(PACKAGE_DIR, scratch),
			await minimalTriggerTarball(scratch),
		];
		progress('Starting Postgres, Redis, n8n main, worker and webhook processes ...');
		const cluster = await startCluster(installDir, tarballs);
		const pgids = groupsOf(cluster);
		const filled = await workload(cluster, 'trigger', pgids);
		const floors = ['minimal', 'durableFloor', 'rememberingFloor'] as const;
		const fixed: Partial<Record<Start, Workload>> = { triggerFilled: filled };
		for (const floor of floors) fixed[floor] = await workload(cluster, floor, pgids);
		progress('Warming up ...');
		await sendAndCount(await workload(cluster, 'trigger', pgids), newEvents(50));
		for (const floor of floors) await sendAndCount(fixed[floor]!, newEvents(50));
		progress(`Pre-filling the trigger with ${PREFILL} deliveries ...`);
		const prefillEvents = newEvents(PREFILL);
		const prefill = await sendAndCount(filled, prefillEvents);
		// The last first: any delivery of the spread would make each process save what it knows.
		const tailCheck = await sendAndCount(filled, toBothProcesses(prefillEvents.slice(-TAIL)));
		const spreadCheck = await sendAndCount(filled, toBothProcesses(spreadOver(prefillEvents)));
		const resent = (check: SendFigures): Record<string, number> => ({
			sent: Object.values(check.answers).reduce((sum, count) => sum + count, 0),
			duplicateAnswers: check.duplicateAnswers,
			newExecutions: check.newExecutions,
		});
		result.prefill = {
			answers: prefill.answers,
			counts: prefill.counts,
			staticDataBytes: await cluster.store.staticDataBytes(filled.workflowId),
			resentSpread: resent(spreadCheck),
			resentTail: resent(tailCheck),
		};
		progress(`  ${JSON.stringify(result.prefill)}`);
		const rounds = Object.fromEntries(STARTS.map((start) => [start, []])) as unknown as Record<
			Start,
			BatchFigures[]
		>;
		for (let round = 1; round <= ROUNDS; round++) {
			for (const start of STARTS) {
				const work =
					start === 'triggerFresh' ? await workload(cluster, 'trigger', pgids) : fixed[start]!;
				progress(`round ${round}/${ROUNDS}: ${LABELS[start]}: ${DELIVERIES} deliveries ...`);
				const batch = await measureBatch(work, newEvents(DELIVERIES));
				progress(`  ${describe(batch)}`);
				rounds[start].push(batch);
			}
		}
		const cpu = (start: Start): number[] => rounds[start].map((batch) => batch.cpuSeconds);
		const rss = (start: Start): number[] => rounds[start].map((batch) => batch.peakRssBytes);
		const ratioRows: Array<[string, Start, Start]> = [
			['pre-filled ÷ fresh', 'triggerFilled', 'triggerFresh'],
			['fresh ÷ minimal trigger', 'triggerFresh', 'minimal'],
			['pre-filled ÷ minimal trigger', 'triggerFilled', 'minimal'],
			['fresh ÷ durable floor', 'triggerFresh', 'durableFloor'],
			['pre-filled ÷ durable floor', 'triggerFilled', 'durableFloor'],
			['pre-filled ÷ floor keeping 5,000', 'triggerFilled', 'rememberingFloor'],
			['floor keeping 5,000 ÷ minimal trigger', 'rememberingFloor', 'minimal'],
		];
		const comparisons = ratioRows.map(([label, ours, theirs]): [string, Comparison] => [
			label,
			compareRounds(rounds[ours], rounds[theirs]),
		]);
		result.rounds = rounds;
		result.ratios = Object.fromEntries(comparisons);
		report = [
			`### Queue mode (${result.mode as string}), ${DEFAULTS ? "n8n's defaults" : 'lazy isolates'}: ${ROUNDS} rounds of ${DELIVERIES} deliveries, ${IN_FLIGHT} in flight, alternated (median, min–max)`,
			'',
			table(
				[
					'start',
					'CPU s per batch, all n8n processes',
					'CPU per delivery',
					'wall, all answered',
					'p99 answer',
					'peak RSS, all n8n processes',
					'executions (missing / doubled)',
					'load 1 min, per round',
				],
				STARTS.map((start) => [
					LABELS[start],
					showSpread(spread(cpu(start)), seconds),
					showSpread(
						spread(rounds[start].map((batch) => batch.cpuMsPerDelivery)),
						(value) => `${value.toFixed(1)} ms`,
					),
					showSpread(spread(rounds[start].map((batch) => batch.wallMs)), ms),
					showSpread(spread(rounds[start].map((batch) => batch.p99Ms)), ms),
					showSpread(spread(rss(start)), mib),
					executionsCell(rounds[start]),
					rounds[start].map(loadCell).join(', '),
				]),
			),
			'',
			`Pre-filled: ${PREFILL} deliveries before the rounds (${prefill.counts.executions} executions, ${prefill.counts.missing} missing, ${prefill.counts.doubled} doubled); then ${SPREAD} of them spread over the pre-fill, each sent to both webhook processes: ${spreadCheck.duplicateAnswers} duplicate answers, ${spreadCheck.newExecutions} new executions; its last ${TAIL}, each sent to both: ${tailCheck.duplicateAnswers} duplicate answers, ${tailCheck.newExecutions} new executions.`,
			'',
			comparisonTable(comparisons),
		].join('\n');
	} finally {
		await stopAll();
	}
	result.wallSeconds = (Date.now() - startedAt) / 1000;
	result.loadAtStart = loadAtStart;
	result.loadAtEnd = loadAverage();
	const file = writeFigures(OUTPUT, result);
	process.stdout.write(
		`\nPackage: ${JSON.stringify(result.package)}, trigger version ${TRIGGER_VERSION}, n8n settings added: ${JSON.stringify(N8N_ENV)}\n\n${report}\n\nWhole run: ${seconds(result.wallSeconds as number)}; load ${loadAtStart.join(' ')} → ${(result.loadAtEnd as number[]).join(' ')}\nFigures: ${file}\n`,
	);
}

// Ctrl-C or a kill: exit normally, so that n8n, Postgres and Redis are killed with us.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

await main();
