/**
 * `npm run bench:n8n`: what a delivery to the Performance Service Trigger costs real n8n (the
 * cached 2.41.1 install, SQLite, regular mode), against the same workflow started by a minimal
 * community trigger (generated here: n8n's floor for any trigger that is not built in) and by
 * n8n's Webhook node. Every workflow is start node → No Operation.
 *
 * Six n8n instances (eight with a baseline) run side by side, each with the packages installed,
 * one per start:
 *   A. the trigger, fresh: a new workflow each round (nothing remembered);
 *   B. the trigger, pre-filled: one workflow that has taken BENCH_PREFILL (5,000) distinct signed
 *      deliveries before its first measured batch (whatever the trigger's storage format: the
 *      deliveries are what fills it), within its 24-hour duplicate window;
 *   A', B'. with BENCH_BASELINE_DIR, the same two for the webhook trigger of another build,
 *      installed in every n8n under another package name (benchPackages.mts); B' takes the same
 *      events as B (pre-fill, curve, batches, crash) and the crash part leaves both out;
 *   C. the minimal trigger; E. the durable floor: the minimal trigger with a credential that saves
 *      one small value in its static data per delivery, what any trigger needs from n8n to keep
 *      the promises this one keeps; F. the same floor keeping 5,000 digests of 12 characters in
 *      its static data from the first delivery on, the fewest bytes 5,000 remembered events need
 *      (benchPackages.mts); D. n8n's Webhook node.
 * Measured batches (BENCH_DELIVERIES distinct signed deliveries, 50 in flight) alternate
 * A (A') B (B') C E F D, ... (BENCH_ROUNDS rounds) with lazy isolates
 * (N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true), then at n8n's defaults. Before the rounds, A, C, E, F and D
 * take as many unmeasured deliveries as B's pre-fill (the same history: executions in their
 * databases), and every instance is restarted (and warmed up) before the rounds of each setting,
 * so that all enter them in the same state.
 * For each batch: CPU seconds of n8n's process group (main + task runner: utime + stime from
 * /proc, at start and once every execution has finished), wall time, p99 answer time, peak RSS
 * of the group, executions per event (none missing, none doubled), /proc/loadavg before and after.
 *
 * Parts (BENCH_PARTS, default all: curve,lazy,defaults,crash):
 * - curve: in B's instance, lazy isolates, remembered events filled progressively: a measured
 *   batch at each of BENCH_CURVE_LEVELS (0,1000,2500,5000) events sent before it, each followed
 *   by a batch of the minimal trigger (C) as the anchor. It is also B's pre-fill.
 * - lazy, defaults: the alternated rounds with those settings.
 * - crash: after the rounds of each setting in BENCH_CRASH_SETTINGS (lazy), for A (its last
 *   workflow), B and D: the last batch once more, a crash (SIGKILL at the last answer, restart:
 *   acknowledged deliveries without execution) and the resends after the restart.
 *
 * Environment: BENCH_DELIVERIES (500; e.g. 200 for a quick run), BENCH_ROUNDS (3),
 * BENCH_PREFILL (5000), BENCH_CURVE_LEVELS, BENCH_WARMUP (50 unmeasured deliveries per instance
 * and setting), BENCH_CRASH_DELIVERIES (300), BENCH_CRASH_SETTINGS (lazy), BENCH_PACKAGE_DIR (the
 * package to measure: a built package folder, e.g. a worktree of an older commit, or a .tgz;
 * default this working tree), BENCH_BASELINE_DIR (a built package folder, e.g. /work/wt/old: its
 * webhook trigger measured as A' and B', with the ratios this build ÷ baseline), BENCH_N8N_ENV
 * (JSON of n8n settings added to both settings), BENCH_MINIMAL_CREDENTIAL=1 (the minimal trigger
 * also takes a credential it never reads: n8n's floor for a trigger with one), BENCH_OUTPUT
 * (bench-n8n.json in test-artifacts/, or an absolute path).
 *
 * Prints tables and writes the figures as JSON. A benchmark, not a test: it fails only when it
 * cannot measure. Needs a built package (`npm run bench:n8n` builds this working tree).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { ensureN8nInstalled } from '../test/support/n8n/install.mts';
import { progress } from '../test/support/n8n/progress.mts';
import { waitForWebhook } from '../test/support/n8n/webhooks.mts';
import { newEvents } from '../test/support/n8n/eventBatch.mts';
import type { Event, Workload } from '../test/support/n8n/eventBatch.mts';
import { IN_FLIGHT, measureBatch, sendAndCount } from './benchBatch.mts';
import type { BatchFigures, SendFigures } from './benchBatch.mts';
import {
	BenchInstance,
	TRIGGER_START_LABELS,
	TRIGGER_STARTS,
	TRIGGER_VERSION,
} from './benchInstances.mts';
import type { StartKind, TriggerStart } from './benchInstances.mts';
import {
	MINIMAL_WITH_CREDENTIAL,
	baselineTarball,
	minimalTriggerTarball,
	packageTarball,
} from './benchPackages.mts';
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
	times,
	writeFigures,
} from './benchReport.mts';
import type { Comparison, Spread } from './benchReport.mts';
import { crashTest } from './crashTest.mts';
import type { CrashFigures } from './crashTest.mts';
import { loadAverage } from './processMeter.mts';

const numberList = (value: string): number[] => value.split(',').map(Number);
const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PREFILL = Number(process.env.BENCH_PREFILL ?? 5000);
const CURVE_LEVELS = numberList(process.env.BENCH_CURVE_LEVELS ?? '0,1000,2500,5000');
const WARMUP = Number(process.env.BENCH_WARMUP ?? 50);
const CRASH_DELIVERIES = Number(process.env.BENCH_CRASH_DELIVERIES ?? 300);
const PACKAGE_DIR = process.env.BENCH_PACKAGE_DIR || undefined;
const BASELINE_DIR = process.env.BENCH_BASELINE_DIR || undefined;
const OUTPUT = process.env.BENCH_OUTPUT ?? 'bench-n8n.json';
const PARTS = new Set((process.env.BENCH_PARTS ?? 'curve,lazy,defaults,crash').split(','));
const CRASH_SETTINGS = new Set((process.env.BENCH_CRASH_SETTINGS ?? 'lazy').split(','));
const EXTRA_ENV = JSON.parse(process.env.BENCH_N8N_ENV ?? '{}') as Record<string, string>;

type Setting = 'lazy' | 'defaults';
const SETTINGS: Record<Setting, Record<string, string>> = {
	lazy: { ...EXTRA_ENV, N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' },
	defaults: { ...EXTRA_ENV },
};
const SETTING_LABELS: Record<Setting, string> = {
	lazy: 'lazy isolates (N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true)',
	defaults: "n8n's defaults",
};

/** The measured starts, in the order each round runs them: each baseline right after this build's. */
type Start = TriggerStart | 'baselineFresh' | 'baselineFilled' | 'webhookNode';
const BASELINE_OF: Partial<Record<Start, Start>> = {
	triggerFresh: 'baselineFresh',
	triggerFilled: 'baselineFilled',
};
const STARTS: Start[] = [
	...TRIGGER_STARTS.flatMap((start) =>
		BASELINE_DIR && BASELINE_OF[start] ? [start, BASELINE_OF[start]] : [start],
	),
	'webhookNode',
];
/** The starts given a new workflow each round, and those pre-filled with the same events. */
const FRESH = new Set<Start>(['triggerFresh', 'baselineFresh']);
const FILLED = new Set<Start>(['triggerFilled', 'baselineFilled']);
const KIND: Record<Start, StartKind> = {
	triggerFresh: 'trigger',
	triggerFilled: 'trigger',
	baselineFresh: 'baseline',
	baselineFilled: 'baseline',
	minimal: 'minimal',
	durableFloor: 'durableFloor',
	rememberingFloor: 'rememberingFloor',
	webhookNode: 'webhookNode',
};
const LABELS: Record<Start, string> = {
	...TRIGGER_START_LABELS,
	baselineFresh: 'baseline trigger, fresh',
	baselineFilled: 'baseline trigger, pre-filled',
	webhookNode: 'Webhook node',
};

/** One instance and its current workload per start; B's workload and its events live for the whole run. */
interface Bench {
	instances: Partial<Record<Start, BenchInstance>>;
	work: Partial<Record<Start, Workload>>;
	/** Every event sent to B's workflow (and the baseline's pre-filled one), oldest first. */
	filledEvents: Event[];
	lastEvents: Partial<Record<Start, Event[]>>;
}

interface FillFigures {
	sent: number;
	answers: Record<string, number>;
	executions: number;
	missing: number;
	doubled: number;
}

function addFill(total: FillFigures | undefined, figures: SendFigures, sent: number): FillFigures {
	const base = total ?? { sent: 0, answers: {}, executions: 0, missing: 0, doubled: 0 };
	const answers = { ...base.answers };
	for (const [status, count] of Object.entries(figures.answers))
		answers[status] = (answers[status] ?? 0) + count;
	return {
		sent: base.sent + sent,
		answers,
		executions: base.executions + figures.counts.executions,
		missing: base.missing + figures.counts.missing,
		doubled: base.doubled + figures.counts.doubled,
	};
}

/** Sends B's workflow `count` new distinct deliveries (not measured). */
async function fill(bench: Bench, count: number, total?: FillFigures): Promise<FillFigures> {
	if (count <= 0) return total ?? addFill(undefined, emptySend(), 0);
	const work = bench.work.triggerFilled!;
	progress(`  filling: ${count} deliveries (${bench.filledEvents.length} sent before) ...`);
	const events = newEvents(count);
	const figures = await sendAndCount(work, events);
	bench.filledEvents.push(...events);
	await sameEventsToBaseline(bench, events);
	return addFill(total, figures, count);
}

/** Sends events B's workflow took outside the rounds to the baseline's pre-filled one too (not measured): both keep the same history. */
async function sameEventsToBaseline(bench: Bench, events: Event[]): Promise<void> {
	const work = bench.work.baselineFilled;
	if (work && events.length > 0) await sendAndCount(work, events);
}

function emptySend(): SendFigures {
	return {
		answers: {},
		duplicateAnswers: 0,
		newExecutions: 0,
		counts: { executions: 0, missing: 0, doubled: 0, statuses: {} },
		wallMs: 0,
	};
}

interface RememberedCheck {
	resent: number;
	duplicateAnswers: number;
	newExecutions: number;
	staticDataBytes: number;
}

/**
 * Sends 50 of B's earlier events again, spread over the newest BENCH_PREFILL - BENCH_DELIVERIES
 * (a bound of 5,000 lets older ones go): all should be answered as duplicates and start nothing,
 * which shows the pre-fill is remembered (inside the duplicate window) when the rounds start.
 */
async function checkRemembered(bench: Bench, work: Workload): Promise<RememberedCheck> {
	const candidates = bench.filledEvents.slice(-Math.max(1, PREFILL - DELIVERIES));
	const step = Math.max(1, Math.floor(candidates.length / 50));
	const sample = candidates.filter((_event, index) => index % step === 0).slice(0, 50);
	const figures = await sendAndCount(work, sample);
	return {
		resent: sample.length,
		duplicateAnswers: figures.duplicateAnswers,
		newExecutions: figures.newExecutions,
		staticDataBytes: await work.store.staticDataBytes(work.workflowId),
	};
}

/**
 * Sends each other n8n as many unmeasured deliveries as B's has taken (to a throw-away workflow
 * of its start), so that every n8n enters the rounds with at least B's history: as many
 * executions in its database. The rounds then compare what the start nodes cost, not how much
 * each n8n had done before.
 */
async function sameHistory(bench: Bench): Promise<Partial<Record<Start, number>>> {
	const count = bench.filledEvents.length;
	const sent: Partial<Record<Start, number>> = { triggerFilled: count, baselineFilled: count };
	for (const start of STARTS) {
		const instance = bench.instances[start];
		if (FILLED.has(start) || !instance || count === 0) continue;
		progress(`The same history for the ${LABELS[start]} n8n: ${count} deliveries ...`);
		await sendAndCount(await instance.workload(KIND[start]), newEvents(count));
		sent[start] = count;
	}
	return sent;
}

/** Unmeasured deliveries to a throw-away workflow of the same start, so each instance is warm. */
async function warmUp(instance: BenchInstance, kind: StartKind): Promise<void> {
	if (WARMUP <= 0) return;
	const work = await instance.workload(kind);
	await sendAndCount(work, newEvents(WARMUP));
}

interface CurvePoint {
	/** Distinct events sent to the workflow before the batch. */
	rememberedBefore: number;
	staticDataBytesBefore: number;
	trigger: BatchFigures;
	minimal: BatchFigures;
}

async function curve(bench: Bench): Promise<{ points: CurvePoint[]; fill: FillFigures }> {
	let filled: FillFigures | undefined;
	const points: CurvePoint[] = [];
	for (const level of CURVE_LEVELS) {
		filled = await fill(bench, level - bench.filledEvents.length, filled);
		const work = bench.work.triggerFilled!;
		const rememberedBefore = bench.filledEvents.length;
		const staticDataBytesBefore = await work.store.staticDataBytes(work.workflowId);
		progress(`  curve: trigger, ${rememberedBefore} remembered: ${DELIVERIES} deliveries ...`);
		const events = newEvents(DELIVERIES);
		const trigger = await measureBatch(work, events);
		bench.filledEvents.push(...events);
		await sameEventsToBaseline(bench, events);
		progress(`    ${describe(trigger)}`);
		progress(`  curve: minimal trigger (anchor): ${DELIVERIES} deliveries ...`);
		const minimal = await measureBatch(bench.work.minimal!, newEvents(DELIVERIES));
		progress(`    ${describe(minimal)}`);
		points.push({ rememberedBefore, staticDataBytesBefore, trigger, minimal });
	}
	return { points, fill: filled ?? addFill(undefined, emptySend(), 0) };
}

function rememberedText(check: RememberedCheck): string {
	return `${check.duplicateAnswers} of ${check.resent} answered as duplicates, ${check.newExecutions} new executions (static data ${check.staticDataBytes} bytes)`;
}

function describe(batch: BatchFigures): string {
	return `${seconds(batch.cpuSeconds)} CPU (${batch.cpuMsPerDelivery.toFixed(1)} ms per delivery), wall ${ms(batch.wallMs)}, p99 ${ms(batch.p99Ms)}, peak ${mib(batch.peakRssBytes)}, answers ${JSON.stringify(batch.answers)}, executions ${batch.counts.executions} (missing ${batch.counts.missing}, doubled ${batch.counts.doubled}), load ${loadCell(batch)}`;
}

interface SettingFigures {
	env: Record<string, string>;
	/** For each pre-filled start. */
	remembered: Partial<Record<Start, RememberedCheck>>;
	/** Distinct events sent to B's workflow before each of its measured batches. */
	filledRememberedBefore: number[];
	rounds: Record<Start, BatchFigures[]>;
	/** The static data of F's workflow after the rounds. */
	floorStaticDataBytes: number;
	crash?: Partial<Record<Start, CrashFigures>>;
}

async function runSetting(bench: Bench, setting: Setting): Promise<SettingFigures> {
	const env = SETTINGS[setting];
	progress(`${SETTING_LABELS[setting]}:`);
	// Every n8n starts the rounds restarted, so that peak memory compares the rounds alone, not
	// what B's process kept from the curve and the pre-fill (V8 returns freed memory lazily).
	for (const start of STARTS) {
		const instance = bench.instances[start]!;
		progress(`  restarting the ${LABELS[start]} n8n with these settings ...`);
		await instance.restart(env);
		for (const url of bench.work[start]?.urls ?? []) await waitForWebhook(url);
		await warmUp(instance, KIND[start]);
	}
	const remembered: Partial<Record<Start, RememberedCheck>> = {};
	for (const start of STARTS.filter((each) => FILLED.has(each))) {
		const check = await checkRemembered(bench, bench.work[start]!);
		remembered[start] = check;
		progress(`  pre-fill still remembered: ${LABELS[start]}: ${rememberedText(check)}`);
	}
	const rounds = Object.fromEntries(STARTS.map((start) => [start, []])) as unknown as Record<
		Start,
		BatchFigures[]
	>;
	const filledRememberedBefore: number[] = [];
	for (let round = 1; round <= ROUNDS; round++) {
		for (const start of STARTS) {
			if (FRESH.has(start)) bench.work[start] = await bench.instances[start]!.workload(KIND[start]);
			const work = bench.work[start]!;
			if (start === 'triggerFilled') filledRememberedBefore.push(bench.filledEvents.length);
			progress(`  round ${round}/${ROUNDS}: ${LABELS[start]}: ${DELIVERIES} deliveries ...`);
			// The baseline's pre-filled workflow takes the batch B's took just before.
			const events =
				start === 'baselineFilled' ? bench.lastEvents.triggerFilled! : newEvents(DELIVERIES);
			const batch = await measureBatch(work, events);
			if (start === 'triggerFilled') bench.filledEvents.push(...events);
			bench.lastEvents[start] = events;
			progress(`    ${describe(batch)}`);
			rounds[start].push(batch);
		}
	}
	const floor = bench.work.rememberingFloor!;
	const figures: SettingFigures = {
		env,
		remembered,
		filledRememberedBefore,
		rounds,
		floorStaticDataBytes: await floor.store.staticDataBytes(floor.workflowId),
	};
	if (PARTS.has('crash') && CRASH_SETTINGS.has(setting)) {
		figures.crash = {};
		for (const start of ['triggerFresh', 'triggerFilled', 'webhookNode'] as const) {
			progress(`  crash: ${LABELS[start]} ...`);
			const instance = bench.instances[start]!;
			let crashEvents: Event[] = [];
			figures.crash[start] = await crashTest(
				bench.work[start]!,
				{
					get pgid() {
						return instance.pgid;
					},
					restart: () => instance.restart(),
				},
				bench.lastEvents[start]!,
				CRASH_DELIVERIES,
				(events) => {
					crashEvents = events;
				},
			);
			if (start === 'triggerFilled') {
				bench.filledEvents.push(...crashEvents);
				await sameEventsToBaseline(bench, crashEvents);
			}
		}
	}
	return figures;
}

interface SettingSummary {
	cpuSeconds: Record<Start, Spread>;
	peakRssBytes: Record<Start, Spread>;
	ratios: Record<string, Comparison>;
}

/** The ratios reported, of the starts measured. */
const RATIOS = (
	[
		['fresh: this build ÷ baseline', 'triggerFresh', 'baselineFresh'],
		['pre-filled: this build ÷ baseline', 'triggerFilled', 'baselineFilled'],
		['pre-filled ÷ fresh', 'triggerFilled', 'triggerFresh'],
		['fresh ÷ minimal trigger', 'triggerFresh', 'minimal'],
		['pre-filled ÷ minimal trigger', 'triggerFilled', 'minimal'],
		['fresh ÷ durable floor', 'triggerFresh', 'durableFloor'],
		['pre-filled ÷ durable floor', 'triggerFilled', 'durableFloor'],
		['durable floor ÷ minimal trigger', 'durableFloor', 'minimal'],
		['pre-filled ÷ floor keeping 5,000', 'triggerFilled', 'rememberingFloor'],
		['floor keeping 5,000 ÷ durable floor', 'rememberingFloor', 'durableFloor'],
		['floor keeping 5,000 ÷ minimal trigger', 'rememberingFloor', 'minimal'],
		['fresh ÷ Webhook node', 'triggerFresh', 'webhookNode'],
		['pre-filled ÷ Webhook node', 'triggerFilled', 'webhookNode'],
	] satisfies Array<[string, Start, Start]>
).filter(([, ours, theirs]) => STARTS.includes(ours) && STARTS.includes(theirs));

function summarise(figures: SettingFigures): SettingSummary {
	const of = (start: Start, pick: (batch: BatchFigures) => number): number[] =>
		figures.rounds[start].map(pick);
	const cpu = (start: Start): number[] => of(start, (batch) => batch.cpuSeconds);
	const rss = (start: Start): number[] => of(start, (batch) => batch.peakRssBytes);
	return {
		cpuSeconds: Object.fromEntries(STARTS.map((start) => [start, spread(cpu(start))])) as Record<
			Start,
			Spread
		>,
		peakRssBytes: Object.fromEntries(STARTS.map((start) => [start, spread(rss(start))])) as Record<
			Start,
			Spread
		>,
		ratios: Object.fromEntries(
			RATIOS.map(([label, ours, theirs]) => [
				label,
				compareRounds(figures.rounds[ours], figures.rounds[theirs]),
			]),
		),
	};
}

function settingTables(setting: Setting, figures: SettingFigures, summary: SettingSummary): string {
	const batches = figures.rounds;
	const perStart = STARTS.map((start) => {
		const list = batches[start];
		return [
			LABELS[start],
			showSpread(summary.cpuSeconds[start], seconds),
			showSpread(
				spread(list.map((batch) => batch.cpuMsPerDelivery)),
				(value) => `${value.toFixed(1)} ms`,
			),
			showSpread(spread(list.map((batch) => batch.wallMs)), ms),
			showSpread(spread(list.map((batch) => batch.p99Ms)), ms),
			showSpread(summary.peakRssBytes[start], mib),
			executionsCell(list),
			list.map(loadCell).join(', '),
		];
	});
	const remembered = Object.entries(figures.remembered).map(
		([start, check]) => `${LABELS[start as Start]}: ${rememberedText(check)}`,
	);
	return [
		`### ${SETTING_LABELS[setting]}: ${ROUNDS} rounds of ${DELIVERIES} deliveries, ${IN_FLIGHT} in flight, alternated (median, min–max)`,
		'',
		table(
			[
				'start',
				'CPU s per batch',
				'CPU per delivery',
				'wall, all answered',
				'p99 answer',
				'peak RSS',
				'executions (missing / doubled)',
				'load 1 min, per round',
			],
			perStart,
		),
		'',
		`Pre-filled: ${figures.filledRememberedBefore.join(', ')} distinct events sent before its batches; earlier events resent before the rounds: ${remembered.join('; ')}. The floor keeping 5,000 digests: static data ${figures.floorStaticDataBytes} bytes after the rounds.`,
		'',
		comparisonTable(RATIOS.map(([label]) => [label, summary.ratios[label]])),
	].join('\n');
}

function curveTable(points: CurvePoint[]): string {
	return [
		`### Curve: lazy isolates, ${DELIVERIES} deliveries per batch, each followed by the minimal trigger's`,
		'',
		table(
			[
				'remembered before',
				'static data',
				'trigger CPU per delivery',
				'minimal CPU per delivery',
				'ratio',
				'trigger p99',
				'trigger peak RSS',
				'executions (missing / doubled)',
				'load 1 min',
			],
			points.map((point) => [
				String(point.rememberedBefore),
				`${(point.staticDataBytesBefore / 1024).toFixed(0)} KiB`,
				`${point.trigger.cpuMsPerDelivery.toFixed(1)} ms`,
				`${point.minimal.cpuMsPerDelivery.toFixed(1)} ms`,
				times(point.trigger.cpuSeconds / point.minimal.cpuSeconds),
				ms(point.trigger.p99Ms),
				mib(point.trigger.peakRssBytes),
				executionsCell([point.trigger]),
				loadCell(point.trigger),
			]),
		),
	].join('\n');
}

function crashTable(crash: Partial<Record<Start, CrashFigures>>): string {
	const starts = STARTS.filter((start) => crash[start]);
	const cell = (pick: (figures: CrashFigures) => string): string[] =>
		starts.map((start) => pick(crash[start]!));
	return table(
		['', ...starts.map((start) => LABELS[start])],
		[
			[
				'last batch once more: new executions (duplicate answers)',
				...cell((f) => `${f.repeat.newExecutions} (${f.repeat.duplicateAnswers})`),
			],
			[
				`crash: ${CRASH_DELIVERIES} sent, SIGKILL at the last answer: acknowledged`,
				...cell((f) => String(f.acknowledged)),
			],
			[
				'crash: acknowledged without execution',
				...cell((f) => String(f.acknowledgedWithoutExecution)),
			],
			['crash: executions after restart (status)', ...cell((f) => JSON.stringify(f.statuses))],
			[
				'after the restart, the last batch again: new executions',
				...cell((f) => String(f.afterRestart.load.newExecutions)),
			],
			[
				"after the restart, the crash's deliveries again: new executions",
				...cell((f) => String(f.afterRestart.crash.newExecutions)),
			],
		],
	);
}

async function main(): Promise<void> {
	const startedAt = Date.now();
	const loadAtStart = loadAverage();
	const installDir = await ensureN8nInstalled();
	const scratch = mkdtempSync(path.join(os.tmpdir(), 'n8n-bench-packages-'));
	const bench: Bench = { instances: {}, work: {}, filledEvents: [], lastEvents: {} };
	const settings = (['lazy', 'defaults'] as const).filter((setting) => PARTS.has(setting));
	const needs = new Set<Start>();
	if (PARTS.has('curve'))
		['triggerFilled', 'minimal'].forEach((start) => needs.add(start as Start));
	if (settings.length > 0) STARTS.forEach((start) => needs.add(start));
	const firstEnv = SETTINGS[settings[0] ?? 'lazy'];
	const result: Record<string, unknown> = {
		at: new Date().toISOString(),
		cpus: os.cpus().length,
		package: packageSource(PACKAGE_DIR),
		baseline: BASELINE_DIR ? packageSource(BASELINE_DIR) : undefined,
		triggerVersion: TRIGGER_VERSION,
		deliveries: DELIVERIES,
		inFlight: IN_FLIGHT,
		rounds: ROUNDS,
		parts: [...PARTS],
	};
	const report: string[] = [];
	try {
		progress('Packing the packages ...');
		const tarballs = [
			await packageTarball(PACKAGE_DIR, scratch),
			await minimalTriggerTarball(scratch),
			...(BASELINE_DIR ? [await baselineTarball(BASELINE_DIR, scratch)] : []),
		];
		for (const start of STARTS.filter((each) => needs.has(each))) {
			progress(`Starting the n8n of the ${LABELS[start]} ...`);
			bench.instances[start] = await BenchInstance.create(start, installDir, tarballs, firstEnv);
			if (!FRESH.has(start)) bench.work[start] = await bench.instances[start].workload(KIND[start]);
		}
		if (PARTS.has('curve')) {
			progress('Curve (lazy isolates) ...');
			if (JSON.stringify(bench.instances.triggerFilled!.env) !== JSON.stringify(SETTINGS.lazy))
				throw new Error('The curve runs with lazy isolates');
			await warmUp(bench.instances.triggerFilled!, 'trigger');
			await warmUp(bench.instances.minimal!, 'minimal');
			const measured = await curve(bench);
			result.curve = measured;
			report.push(curveTable(measured.points));
		}
		if (settings.length > 0 && bench.filledEvents.length < PREFILL) {
			progress(`Pre-filling the trigger to ${PREFILL} events ...`);
			result.prefill = await fill(bench, PREFILL - bench.filledEvents.length);
		}
		if (settings.length > 0) {
			result.history = await sameHistory(bench);
			report.push(
				`Before the rounds every n8n took ${bench.filledEvents.length} unmeasured deliveries (the trigger, pre-filled: its pre-fill; the others: to a workflow of their own), so all have the same history.`,
			);
		}
		const perSetting: Record<string, unknown> = {};
		for (const setting of settings) {
			const figures = await runSetting(bench, setting);
			const summary = summarise(figures);
			perSetting[setting] = { ...figures, summary };
			report.push(settingTables(setting, figures, summary));
			if (figures.crash)
				report.push(`Crash and resends, ${setting}:\n\n${crashTable(figures.crash)}`);
		}
		result.settings = perSetting;
	} finally {
		for (const instance of Object.values(bench.instances)) await instance.dispose();
		rmSync(scratch, { recursive: true, force: true });
	}
	result.wallSeconds = (Date.now() - startedAt) / 1000;
	result.loadAtStart = loadAtStart;
	result.loadAtEnd = loadAverage();
	const file = writeFigures(OUTPUT, result);
	process.stdout.write(
		`\nPackage: ${JSON.stringify(result.package)}${BASELINE_DIR ? `, baseline: ${JSON.stringify(result.baseline)}` : ''}, trigger version ${TRIGGER_VERSION}${MINIMAL_WITH_CREDENTIAL ? ', minimal trigger with a credential' : ''}, n8n settings added: ${JSON.stringify(EXTRA_ENV)}\n\n${report.join('\n\n')}\n\nWhole run: ${seconds(result.wallSeconds as number)}; load ${loadAtStart.join(' ')} → ${(result.loadAtEnd as number[]).join(' ')}\nFigures: ${file}\n`,
	);
}

// Ctrl-C or a kill: exit normally, so that every n8n started here is killed with us (instance.ts).
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

await main();
