/**
 * `npm start` as a user (or a process manager) runs it: the demo keeps what was built in n8n
 * between starts, `--reset` drops it, and a signal to the command, or its parent going away,
 * stops n8n and the sandbox with nothing left running. It runs with an empty HOME (the cache folder
 * kept where it is, through XDG_CACHE_HOME), which it leaves as it found it but for npm's own `.npm`.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { N8nClient } from '../support/n8n/client.mts';
import type { StoredWorkflow } from '../support/n8n/client.mts';
import { CREDENTIAL_NAMES, EXAMPLE_FILES, readExample } from '../support/n8n/examples.mts';
import { cacheDir, PACKAGE_ROOT } from '../support/n8n/paths.mts';
import { delay, descendantsOf, freePort, isRunning, waitFor } from '../support/n8n/processes.mts';
import { ringAboutNewThreat } from '../support/n8n/securityRings.mts';
import { nodeOutput, waitForExecution } from './executions.mts';

const READY_LINE = 'Press Ctrl-C to stop n8n and the sandbox.';
const READY_TIMEOUT_MS = 600_000;
const STOP_TIMEOUT_MS = 60_000;
/** The example polls every minute. */
const POLL_TIMEOUT_MS = 150_000;

interface Started {
	/** The process the test signals: npm, or the shell standing in for another parent. */
	command: ChildProcess;
	/** Everything below it once the demo is ready (start.ts, n8n, its task runner, ...). */
	tree: number[];
	output: () => string;
}

let userFolder: string;
let home: string;
let n8nPort: number;
let sandboxPort: number;
let started: Started | undefined;

async function startDemo(command: string, args: string[]): Promise<Started> {
	const child = spawn(command, args, {
		cwd: PACKAGE_ROOT,
		env: {
			...process.env,
			HOME: home,
			XDG_CACHE_HOME: path.dirname(cacheDir()),
			DEMO_USER_FOLDER: userFolder,
			N8N_PORT: String(n8nPort),
			SANDBOX_PORT: String(sandboxPort),
		},
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	started = { command: child, tree: [], output: () => output };
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const exited = new Promise<never>((_, reject) =>
		child.once('exit', (code) =>
			reject(new Error(`${command} exited (${code}) before the demo was ready:\n${output}`)),
		),
	);
	const ready = waitFor(
		'the demo to print its summary',
		async () => (output.includes(READY_LINE) ? true : undefined),
		{
			timeoutMs: READY_TIMEOUT_MS,
			intervalMs: 500,
		},
	);
	await Promise.race([ready, exited]);
	exited.catch(() => undefined);
	started = { command: child, tree: descendantsOf(child.pid!), output: () => output };
	return started;
}

async function portAnswers(port: number): Promise<boolean> {
	try {
		const response = await fetch(`http://127.0.0.1:${port}/`, {
			signal: AbortSignal.timeout(2_000),
		});
		await response.body?.cancel();
		return true;
	} catch {
		return false;
	}
}

/** Signals the command and waits until every process it had started is gone and both ports are closed. */
async function stopDemo(demo: Started, signal: NodeJS.Signals): Promise<void> {
	expect(demo.tree.length).toBeGreaterThan(1);
	const processes = [demo.command.pid!, ...demo.tree];
	demo.command.kill(signal);
	await waitFor(
		'every process of the demo to exit',
		async () => (processes.some(isRunning) ? undefined : true),
		{
			timeoutMs: STOP_TIMEOUT_MS,
			intervalMs: 250,
		},
	).catch((error: unknown) => {
		throw new Error(
			`${String(error)}\nstill running: ${processes.filter(isRunning).join(' ')}\n${demo.output()}`,
		);
	});
	expect(await portAnswers(n8nPort)).toBe(false);
	expect(await portAnswers(sandboxPort)).toBe(false);
	started = undefined;
}

function demoState(): { apiKey: string; workflows: Record<string, { id: string }> } {
	return JSON.parse(readFileSync(path.join(userFolder, 'npm-start.json'), 'utf8')) as {
		apiKey: string;
		workflows: Record<string, { id: string }>;
	};
}

function demoClient(): N8nClient {
	return N8nClient.fromSession(`http://127.0.0.1:${n8nPort}`, '', demoState().apiKey);
}

/**
 * Adds a threat through the sandbox's control API, as the README's curl does, and waits for the
 * published "Threat triage" example to poll and start a new execution holding it.
 */
async function triageNewThreat(client: N8nClient, title: string): Promise<void> {
	const workflowId = demoState().workflows.threatTriage.id;
	const before = new Set((await client.executions(workflowId)).map((execution) => execution.id));
	const response = await fetch(`http://127.0.0.1:${sandboxPort}/_control/security/threats`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ severity: 'high', title }),
	});
	expect(response.status).toBe(201);
	const { id } = (await response.json()) as { id: string };
	await waitFor(
		`a new execution of "Threat triage" with ${id} "${title}"`,
		async () => {
			for (const summary of await client.executions(workflowId)) {
				if (before.has(summary.id)) continue;
				const data = JSON.stringify(await client.execution(summary.id));
				if (data.includes(`"${id}"`) && data.includes(title)) return true;
			}
			return undefined;
		},
		{ timeoutMs: POLL_TIMEOUT_MS, intervalMs: 5_000 },
	);
}

/**
 * Runs the curl the summary prints for "Instant threat alerts" (the sandbox calls the security
 * webhooks about a threat it adds) and checks that the example ran exactly once, for that threat.
 */
async function alertOnRing(client: N8nClient, output: string): Promise<void> {
	const curl =
		/curl -X POST (\S+\/security\/ring) -H 'content-type: application\/json' -d '(.+)'$/m.exec(
			output,
		);
	if (!curl) throw new Error(`The summary prints no ring command:\n${output}`);
	const { threatId, statuses, started } = await ringAboutNewThreat(
		client,
		curl[1],
		curl[2],
		demoState().workflows.instantThreatAlerts.id,
	);
	expect(statuses).toEqual([200]);
	expect(started).toHaveLength(1);
	const execution = await waitForExecution(client, started[0].id);
	expect(execution.status).toBe('success');
	expect(nodeOutput(execution, 'New threat').map((threat) => threat.id)).toEqual([threatId]);
}

async function workflowNames(client: N8nClient): Promise<string[]> {
	const { data } = await client.api<{ data: Array<StoredWorkflow & { isArchived?: boolean }> }>(
		'GET',
		'/workflows?limit=250',
	);
	return data
		.filter((workflow) => !workflow.isArchived)
		.map((workflow) => workflow.name)
		.sort();
}

async function credentialNames(client: N8nClient): Promise<string[]> {
	const { data } = await client.api<{ data: Array<{ name: string }> }>(
		'GET',
		'/credentials?limit=250',
	);
	return data.map((credential) => credential.name).sort();
}

const exampleNames = (Object.keys(EXAMPLE_FILES) as Array<keyof typeof EXAMPLE_FILES>).map(
	(key) => readExample(key).name,
);
const USER_WORKFLOW = 'Built by the user between starts';

describe('npm start', () => {
	beforeAll(async () => {
		userFolder = mkdtempSync(path.join(os.tmpdir(), 'n8n-npm-start-'));
		home = mkdtempSync(path.join(os.tmpdir(), 'n8n-npm-start-home-'));
		n8nPort = await freePort();
		sandboxPort = await freePort();
	});

	// A test that failed half-way leaves its demo running: end it before the next one starts.
	afterEach(async () => {
		if (!started) return;
		for (const pid of [
			started.command.pid!,
			...descendantsOf(started.command.pid!),
			...started.tree,
		]) {
			try {
				process.kill(pid, 'SIGKILL');
			} catch {
				// Already gone.
			}
		}
		started = undefined;
		await delay(1_000);
	});

	afterAll(() => {
		rmSync(userFolder, { recursive: true, force: true });
		rmSync(home, { recursive: true, force: true });
	});

	it('runs the examples, and stops n8n and the sandbox when npm gets SIGTERM from its parent', async () => {
		const demo = await startDemo('npm', ['start']);
		const client = demoClient();
		expect(await workflowNames(client)).toEqual([...exampleNames].sort());
		await client.createWorkflow({ name: USER_WORKFLOW, nodes: [], connections: {} });
		await alertOnRing(client, demo.output());
		await triageNewThreat(client, 'Webshell in uploads, first start');
		await stopDemo(demo, 'SIGTERM');
		expect(readdirSync(home).filter((name) => name !== '.npm')).toEqual([]);
		// The wait for the webhook example's path to be registered probes without a POST n8n logs.
		expect(readFileSync(path.join(userFolder, 'n8n.log'), 'utf8')).not.toContain(
			'Received request for unknown webhook',
		);
	});

	it('keeps what was built (credentials and examples updated, not duplicated; the poller sees new threats), and stops when its parent is killed', async () => {
		// A parent that dies without forwarding anything: the shell is SIGKILLed, start.ts is left behind.
		const demo = await startDemo('sh', [
			'-c',
			'node --disable-warning=MODULE_TYPELESS_PACKAGE_JSON test/support/n8n/start.mts; :',
		]);
		const client = demoClient();
		expect(await workflowNames(client)).toEqual([...exampleNames, USER_WORKFLOW].sort());
		expect(await credentialNames(client)).toEqual(Object.values(CREDENTIAL_NAMES).sort());
		// The kept poller remembers the threats of the first start; one added now is still new to it.
		await alertOnRing(client, demo.output());
		await triageNewThreat(client, 'Webshell in uploads, after the restart');
		await stopDemo(demo, 'SIGKILL');
	});

	it('starts from a clean n8n with --reset, and stops on SIGINT', async () => {
		const demo = await startDemo('node', [
			'--disable-warning=MODULE_TYPELESS_PACKAGE_JSON',
			'test/support/n8n/start.mts',
			'--reset',
		]);
		const client = demoClient();
		expect(await workflowNames(client)).toEqual([...exampleNames].sort());
		expect(await credentialNames(client)).toEqual(Object.values(CREDENTIAL_NAMES).sort());
		await stopDemo(demo, 'SIGINT');
	});
});
