/**
 * `npm run bench:n8n`: load and crash benchmark of the Performance Service Trigger in real n8n
 * (the cached 2.41.1 install, the packed package installed as a community package), side by side
 * with n8n's own Webhook node in the same run. Each node gets a fresh n8n with one workflow:
 * node → No Operation.
 *
 * 1. Load: DELIVERIES distinct signed deliveries, IN_FLIGHT at a time: answers, executions per
 *    event id (none missing or doubled), wall time, p99 answer time, peak RSS of n8n's process
 *    group (sampled every 100 ms until every execution has finished).
 * 2. Repeat: every delivery again (the trigger's re-signed, as the service's retries are):
 *    new executions.
 * 3. Crash: CRASH_DELIVERIES new deliveries, n8n SIGKILLed the moment the last answer arrives,
 *    restarted: acknowledged (2xx) deliveries that left no execution.
 * 4. After that restart, the deliveries of steps 1 and 3 once more: new executions (what the
 *    trigger remembers across a restart is in the workflow's static data only; step 3's were
 *    never repeated before the crash, so only the saves of their own calls recorded them).
 *
 * Prints a table and writes test-artifacts/bench-n8n.json. A benchmark, not a test: it fails
 * only when it cannot measure. Needs `npm run build` (the npm script runs it).
 *
 * Environment: BENCH_DELIVERIES (500), BENCH_CRASH_DELIVERIES (300), BENCH_NODES
 * (webhookNode,trigger), BENCH_N8N_ENV (JSON of n8n settings for both nodes),
 * BENCH_TRIGGER_VERSION (1.1).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { signPayload } from '../sandbox/index.ts';
import { N8nClient } from '../n8n/client.ts';
import type { WorkflowDefinition } from '../n8n/client.ts';
import { installCommunityPackage } from '../n8n/communityPackage.ts';
import { PERFORMANCE_TRIGGER } from '../n8n/examples.ts';
import { ensureN8nInstalled } from '../n8n/install.ts';
import { startN8n } from '../n8n/instance.ts';
import type { N8nInstance } from '../n8n/instance.ts';
import { ARTIFACTS_DIR } from '../n8n/paths.ts';
import { delay, freePort, waitFor } from '../n8n/processes.ts';
import { progress } from '../n8n/progress.ts';
import { waitForWebhook } from '../n8n/webhooks.ts';
import { percentile, sendAll } from './loadDriver.ts';
import type { Answer, Request } from './loadDriver.ts';
import { listeningPid, processGroupOf, RssSampler } from './processTree.ts';

const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 500);
const CRASH_DELIVERIES = Number(process.env.BENCH_CRASH_DELIVERIES ?? 300);
const IN_FLIGHT = 50;
/** The trigger's node version: 1.1 (what the editor adds) or 1 (n8n evaluates an expression per call). */
const TRIGGER_VERSION = Number(process.env.BENCH_TRIGGER_VERSION ?? 1.1);
/** Extra n8n settings for both nodes, as JSON (e.g. '{"N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE":"true"}'). */
const N8N_ENV = JSON.parse(process.env.BENCH_N8N_ENV ?? '{}') as Record<string, string>;
const SECRET = 'whsec_bench_load_4b8e1d2c';
const START_NODE = 'Start';
const OWNER = {
	email: 'bench@example.com',
	firstName: 'Bench',
	lastName: 'Owner',
	password: 'Bench-Owner-1',
};

type Kind = 'webhookNode' | 'trigger';
const LABELS: Record<Kind, string> = {
	webhookNode: "n8n's Webhook node",
	trigger: 'Performance Service Trigger',
};

interface Event {
	id: string;
	body: string;
}

function newEvents(count: number): Event[] {
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

/** Each attempt signed afresh, as the service does; the Webhook node ignores the headers. */
function signed(event: Event): Request {
	const timestamp = String(Math.floor(Date.now() / 1000));
	return {
		body: event.body,
		headers: {
			'content-type': 'application/json',
			'x-service-webhook-timestamp': timestamp,
			'x-service-webhook-signature': signPayload(SECRET, timestamp, event.body),
		},
	};
}

function workflowFor(kind: Kind, credentialId: string, webhookPath: string): WorkflowDefinition {
	const start =
		kind === 'trigger'
			? {
					name: START_NODE,
					type: PERFORMANCE_TRIGGER,
					typeVersion: TRIGGER_VERSION,
					position: [0, 0] as [number, number],
					webhookId: webhookPath,
					parameters: { events: ['*'], options: {} },
					credentials: { performanceServiceApi: { id: credentialId, name: 'Bench account' } },
				}
			: {
					name: START_NODE,
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					position: [0, 0] as [number, number],
					webhookId: webhookPath,
					parameters: { httpMethod: 'POST', path: webhookPath, options: {} },
				};
	return {
		name: `Bench ${LABELS[kind]}`,
		nodes: [
			start,
			{
				name: 'Done',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [220, 0],
				parameters: {},
			},
		],
		connections: { [START_NODE]: { main: [[{ node: 'Done', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

interface Running {
	n8n: N8nInstance;
	pgid: number;
}

interface Target {
	kind: Kind;
	userFolder: string;
	port: number;
	encryptionKey: string;
	installDir: string;
	client: N8nClient;
	workflowId: string;
	url: string;
	running: Running;
}

async function boot(
	installDir: string,
	userFolder: string,
	port: number,
	encryptionKey: string,
): Promise<Running> {
	const n8n = await startN8n({ installDir, userFolder, port, encryptionKey, env: N8N_ENV });
	const pid = listeningPid(port);
	if (pid === undefined) throw new Error(`No process listens on port ${port}`);
	return { n8n, pgid: processGroupOf(pid) };
}

async function setUp(kind: Kind, installDir: string): Promise<Target> {
	const userFolder = mkdtempSync(path.join(os.tmpdir(), `n8n-bench-${kind}-`));
	await installCommunityPackage(userFolder);
	const port = await freePort();
	const encryptionKey = randomBytes(24).toString('hex');
	const running = await boot(installDir, userFolder, port, encryptionKey);
	const client = await N8nClient.setupOwner(running.n8n.origin, OWNER);
	const credentialId = await client.createCredential('Bench account', 'performanceServiceApi', {
		baseUrl: 'http://127.0.0.1:9/v1',
		apiToken: 'tok_unused',
		webhookSigningSecret: SECRET,
	});
	const webhookPath = randomUUID();
	const workflow = await client.createWorkflow(workflowFor(kind, credentialId, webhookPath));
	await client.publishWorkflow(workflow.id);
	const url =
		kind === 'trigger'
			? `${running.n8n.origin}/webhook/${webhookPath}/webhook`
			: `${running.n8n.origin}/webhook/${webhookPath}`;
	// For the Webhook node this starts one execution without an id; it is left out of every count.
	await waitForWebhook(url);
	return {
		kind,
		userFolder,
		port,
		encryptionKey,
		installDir,
		client,
		workflowId: workflow.id,
		url,
		running,
	};
}

interface ExecutionRecord {
	id: string;
	status: string;
	eventId?: string;
}

interface ItemJson {
	id?: unknown;
	body?: { id?: unknown };
}

interface RawExecution {
	id: string | number;
	status: string;
	data?: {
		resultData?: {
			runData?: Record<
				string,
				Array<{ data?: { main?: Array<Array<{ json: ItemJson }> | null> } }>
			>;
		};
		executionData?: {
			nodeExecutionStack?: Array<{
				node: { name: string };
				data: { main: Array<Array<{ json: ItemJson }> | null> };
			}>;
		};
	};
}

/** The event id the start node emitted (the Webhook node nests the body), also for executions that crashed before running. */
function eventIdOf(execution: RawExecution): string | undefined {
	const fromRun =
		execution.data?.resultData?.runData?.[START_NODE]?.[0]?.data?.main?.[0]?.[0]?.json;
	const fromStack = execution.data?.executionData?.nodeExecutionStack?.find(
		(entry) => entry.node.name === START_NODE,
	)?.data.main[0]?.[0]?.json;
	const json = fromRun ?? fromStack;
	const id = json?.body?.id ?? json?.id;
	return typeof id === 'string' ? id : undefined;
}

async function listExecutions(target: Target): Promise<ExecutionRecord[]> {
	const records: ExecutionRecord[] = [];
	let cursor: string | undefined;
	do {
		const query = `workflowId=${target.workflowId}&includeData=true&limit=100${cursor ? `&cursor=${cursor}` : ''}`;
		const page = await target.client.api<{ data: RawExecution[]; nextCursor?: string | null }>(
			'GET',
			`/executions?${query}`,
		);
		for (const execution of page.data) {
			records.push({
				id: String(execution.id),
				status: execution.status,
				eventId: eventIdOf(execution),
			});
		}
		cursor = page.nextCursor ?? undefined;
	} while (cursor);
	return records;
}

const UNFINISHED = new Set(['new', 'running', 'waiting']);

/**
 * Waits until no execution is unfinished and the count has stopped changing. `leftOver`: ids of
 * executions a killed n8n left unfinished, which the restarted one does not finish.
 */
async function settledExecutions(
	target: Target,
	atLeast: number,
	leftOver = new Set<string>(),
): Promise<ExecutionRecord[]> {
	let previous = -1;
	return await waitFor(
		`${atLeast} finished executions of ${LABELS[target.kind]}`,
		async () => {
			const records = await listExecutions(target);
			const running = records.some(
				(record) => UNFINISHED.has(record.status) && !leftOver.has(record.id),
			);
			const settled = records.length >= atLeast && records.length === previous && !running;
			previous = records.length;
			return settled ? records : undefined;
		},
		{ timeoutMs: 600_000, intervalMs: 1000 },
	);
}

interface Counts {
	executions: number;
	missing: number;
	doubled: number;
	statuses: Record<string, number>;
}

function countFor(records: ExecutionRecord[], ids: string[]): Counts {
	const perId = new Map<string, number>();
	const statuses: Record<string, number> = {};
	let executions = 0;
	const wanted = new Set(ids);
	for (const record of records) {
		if (!record.eventId || !wanted.has(record.eventId)) continue;
		executions += 1;
		perId.set(record.eventId, (perId.get(record.eventId) ?? 0) + 1);
		statuses[record.status] = (statuses[record.status] ?? 0) + 1;
	}
	return {
		executions,
		missing: ids.filter((id) => !perId.has(id)).length,
		doubled: [...perId.values()].filter((count) => count > 1).length,
		statuses,
	};
}

function statusCounts(answers: Answer[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const answer of answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
	return counts;
}

const is2xx = (answer: Answer): boolean => answer.status >= 200 && answer.status < 300;

interface LoadFigures {
	answers: Record<string, number>;
	wallMs: number;
	p50Ms: number;
	p99Ms: number;
	/** Until every execution had finished. */
	drainMs: number;
	baselineRssBytes: number;
	peakRssBytes: number;
	counts: Counts;
	repeat: {
		answers: Record<string, number>;
		duplicateAnswers: number;
		newExecutions: number;
		wallMs: number;
	};
	events: Event[];
}

async function measureLoad(target: Target): Promise<LoadFigures> {
	const events = newEvents(DELIVERIES);
	const ids = events.map((event) => event.id);
	const before = (await listExecutions(target)).length;
	await delay(3000);
	const sampler = new RssSampler(target.running.pgid);
	const baselineRssBytes = sampler.sample();
	sampler.peakBytes = 0;
	sampler.start();
	const started = Date.now();
	progress(`  ${DELIVERIES} deliveries, ${IN_FLIGHT} in flight ...`);
	const load = await sendAll(target.url, events.map(signed), IN_FLIGHT);
	progress(`  answers: ${JSON.stringify(statusCounts(load.answers))}`);
	const records = await settledExecutions(target, before + load.answers.filter(is2xx).length);
	const drainMs = Date.now() - started;
	const peakRssBytes = sampler.stop();
	const times = load.answers.map((answer) => answer.ms);

	progress('  each delivery once more ...');
	const repeat = await sendAll(target.url, events.map(signed), IN_FLIGHT);
	progress(`  answers: ${JSON.stringify(statusCounts(repeat.answers))}`);
	const afterRepeat = await settledExecutions(target, records.length);
	return {
		answers: statusCounts(load.answers),
		wallMs: load.wallMs,
		p50Ms: percentile(times, 50),
		p99Ms: percentile(times, 99),
		drainMs,
		baselineRssBytes,
		peakRssBytes,
		counts: countFor(records, ids),
		repeat: {
			answers: statusCounts(repeat.answers),
			duplicateAnswers: repeat.answers.filter((answer) => answer.text.includes('"duplicate":true'))
				.length,
			newExecutions: countFor(afterRepeat, ids).executions - countFor(records, ids).executions,
			wallMs: repeat.wallMs,
		},
		events,
	};
}

interface CrashFigures {
	acknowledged: number;
	acknowledgedWithoutExecution: number;
	executions: number;
	statuses: Record<string, number>;
	/** The load deliveries, then the crash test's, sent again after the restart. */
	afterRestart: {
		answers: Record<string, number>;
		newExecutions: number;
		crashNewExecutions: number;
	};
}

async function crashTest(target: Target, loadEvents: Event[]): Promise<CrashFigures> {
	const events = newEvents(CRASH_DELIVERIES);
	progress(
		`  ${CRASH_DELIVERIES} deliveries, ${IN_FLIGHT} in flight, SIGKILL at the last answer ...`,
	);
	const { pgid } = target.running;
	const { answers } = await sendAll(
		target.url,
		events.map(signed),
		IN_FLIGHT,
		(_answer, answered) => {
			if (answered === CRASH_DELIVERIES) process.kill(-pgid, 'SIGKILL');
		},
	);
	await target.running.n8n.stop();
	progress('  restarting n8n ...');
	target.running = await boot(
		target.installDir,
		target.userFolder,
		target.port,
		target.encryptionKey,
	);
	progress(`  answers: ${JSON.stringify(statusCounts(answers))}`);
	const acknowledgedIds = answers.filter(is2xx).map((answer) => events[answer.index].id);
	await delay(5000);
	const leftOver = new Set(
		(await listExecutions(target))
			.filter((record) => UNFINISHED.has(record.status))
			.map((record) => record.id),
	);
	const afterCrash = await settledExecutions(target, 0, leftOver);
	const counts = countFor(afterCrash, acknowledgedIds);

	progress(
		`  the ${loadEvents.length} deliveries of the load and the ${events.length} of the crash test once more, after the restart ...`,
	);
	const loadIds = loadEvents.map((event) => event.id);
	const again = await sendAll(target.url, loadEvents.map(signed), IN_FLIGHT);
	const afterAgain = await settledExecutions(target, afterCrash.length, leftOver);
	const crashIds = events.map((event) => event.id);
	const crashAgain = await sendAll(target.url, events.map(signed), IN_FLIGHT);
	const afterCrashAgain = await settledExecutions(target, afterAgain.length, leftOver);
	return {
		acknowledged: acknowledgedIds.length,
		acknowledgedWithoutExecution: counts.missing,
		executions: counts.executions,
		statuses: counts.statuses,
		afterRestart: {
			answers: statusCounts([...again.answers, ...crashAgain.answers]),
			newExecutions:
				countFor(afterAgain, loadIds).executions - countFor(afterCrash, loadIds).executions,
			crashNewExecutions:
				countFor(afterCrashAgain, crashIds).executions - countFor(afterAgain, crashIds).executions,
		},
	};
}

interface NodeFigures {
	load: LoadFigures;
	crash: CrashFigures;
}

async function benchmark(kind: Kind, installDir: string): Promise<NodeFigures> {
	progress(`${LABELS[kind]}: fresh n8n ...`);
	const target = await setUp(kind, installDir);
	try {
		const load = await measureLoad(target);
		const crash = await crashTest(target, load.events);
		return { load, crash };
	} finally {
		await target.running.n8n.stop();
		rmSync(target.userFolder, { recursive: true, force: true });
	}
}

const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
const ms = (value: number): string => `${value.toFixed(0)} ms`;
const ratio = (ours: number, theirs: number): string => `${(ours / theirs).toFixed(2)}×`;

function table(figures: Record<Kind, NodeFigures>): string {
	const { webhookNode: w, trigger: t } = figures;
	const row = (label: string, a: string, b: string, r = ''): string =>
		`| ${label} | ${b} | ${a} | ${r} |`;
	return [
		`| ${DELIVERIES} deliveries, ${IN_FLIGHT} in flight | Performance Service Trigger | n8n Webhook node | ratio |`,
		'|---|---|---|---|',
		row('answers', JSON.stringify(w.load.answers), JSON.stringify(t.load.answers)),
		row(
			'executions (missing / doubled)',
			`${w.load.counts.executions} (${w.load.counts.missing} / ${w.load.counts.doubled})`,
			`${t.load.counts.executions} (${t.load.counts.missing} / ${t.load.counts.doubled})`,
		),
		row(
			'wall time, all answered',
			ms(w.load.wallMs),
			ms(t.load.wallMs),
			ratio(t.load.wallMs, w.load.wallMs),
		),
		row(
			'wall time, all executions finished',
			ms(w.load.drainMs),
			ms(t.load.drainMs),
			ratio(t.load.drainMs, w.load.drainMs),
		),
		row(
			'answer time p50 / p99',
			`${ms(w.load.p50Ms)} / ${ms(w.load.p99Ms)}`,
			`${ms(t.load.p50Ms)} / ${ms(t.load.p99Ms)}`,
			ratio(t.load.p99Ms, w.load.p99Ms),
		),
		row(
			'n8n RSS before → peak',
			`${mib(w.load.baselineRssBytes)} → ${mib(w.load.peakRssBytes)}`,
			`${mib(t.load.baselineRssBytes)} → ${mib(t.load.peakRssBytes)}`,
			ratio(t.load.peakRssBytes, w.load.peakRssBytes),
		),
		row(
			'each repeated once: answers',
			JSON.stringify(w.load.repeat.answers),
			`${JSON.stringify(t.load.repeat.answers)}, ${t.load.repeat.duplicateAnswers} duplicate`,
		),
		row(
			'each repeated once: new executions',
			String(w.load.repeat.newExecutions),
			String(t.load.repeat.newExecutions),
		),
		row(
			`crash: ${CRASH_DELIVERIES} sent, SIGKILL at last answer: acknowledged`,
			String(w.crash.acknowledged),
			String(t.crash.acknowledged),
		),
		row(
			'crash: acknowledged without execution',
			String(w.crash.acknowledgedWithoutExecution),
			String(t.crash.acknowledgedWithoutExecution),
		),
		row(
			'crash: executions after restart (status)',
			JSON.stringify(w.crash.statuses),
			JSON.stringify(t.crash.statuses),
		),
		row(
			`after the restart, the ${DELIVERIES} again: new executions`,
			String(w.crash.afterRestart.newExecutions),
			String(t.crash.afterRestart.newExecutions),
		),
		row(
			`after the restart, the ${CRASH_DELIVERIES} of the crash test again: new executions`,
			String(w.crash.afterRestart.crashNewExecutions),
			String(t.crash.afterRestart.crashNewExecutions),
		),
	].join('\n');
}

async function main(): Promise<void> {
	const installDir = await ensureN8nInstalled();
	const figures = {} as Record<Kind, NodeFigures>;
	const kinds = (process.env.BENCH_NODES ?? 'webhookNode,trigger').split(',') as Kind[];
	for (const kind of kinds) figures[kind] = await benchmark(kind, installDir);
	if (!figures.webhookNode || !figures.trigger) {
		process.stdout.write(
			`${JSON.stringify(figures, (key, value: unknown) => (key === 'events' ? undefined : value), 2)}\n`,
		);
		return;
	}
	const report = table(figures);
	mkdirSync(ARTIFACTS_DIR, { recursive: true });
	const file = path.join(ARTIFACTS_DIR, 'bench-n8n.json');
	const summary = Object.fromEntries(
		Object.entries(figures).map(([kind, { load, crash }]) => [
			kind,
			{ load: { ...load, events: load.events.length }, crash },
		]),
	);
	writeFileSync(
		file,
		`${JSON.stringify({ at: new Date().toISOString(), cpus: os.cpus().length, n8nEnv: N8N_ENV, triggerVersion: TRIGGER_VERSION, deliveries: DELIVERIES, inFlight: IN_FLIGHT, figures: summary }, null, 2)}\n`,
	);
	process.stdout.write(
		`\nn8n settings: ${JSON.stringify(N8N_ENV)}, trigger version ${TRIGGER_VERSION}\n${report}\n\nFigures: ${file}\n`,
	);
}

await main();
