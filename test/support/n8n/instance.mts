import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { n8nBin } from './paths.mts';
import { delay, freePort, portInUse, runCommand, tail, waitFor } from './processes.mts';

const STOP_GRACE_MS = 15_000;
const BOOT_TIMEOUT_MS = 180_000;

/** Everything that keeps n8n on 127.0.0.1 with no outbound connections (see the notes on real n8n). */
const OFFLINE_ENV = {
	DB_TYPE: 'sqlite',
	NODE_ENV: 'production',
	N8N_LISTEN_ADDRESS: '127.0.0.1',
	N8N_SECURE_COOKIE: 'false',
	N8N_DIAGNOSTICS_ENABLED: 'false',
	N8N_DIAGNOSTICS_CONFIG_FRONTEND: '',
	N8N_DIAGNOSTICS_CONFIG_BACKEND: '',
	N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
	N8N_TEMPLATES_ENABLED: 'false',
	N8N_PERSONALIZATION_ENABLED: 'false',
	N8N_HIRING_BANNER_ENABLED: 'false',
	N8N_DYNAMIC_BANNERS_ENABLED: 'false',
	N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
	N8N_AI_ENABLED: 'false',
	EXTERNAL_FRONTEND_HOOKS_URLS: '',
	N8N_RUNNERS_MODE: 'internal',
	N8N_DISABLED_MODULES: 'mcp-registry',
	N8N_VERIFIED_PACKAGES_ENABLED: 'false',
	N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
};

export interface N8nOptions {
	installDir: string;
	/** Holds `.n8n/` (database, settings, community nodes) and the log file. */
	userFolder: string;
	port: number;
	/** The n8n command: `start` (default), or in queue mode `worker` or `webhook`. */
	command?: 'start' | 'worker' | 'webhook';
	/** Settings added to (and overriding) the offline defaults, e.g. the queue-mode database and Redis. */
	env?: Record<string, string>;
	/** Processes of one queue-mode installation share one key; random when left out. */
	encryptionKey?: string;
	/** The Node that runs n8n (n8n 1.x runs on Node 22); the current one when left out. */
	nodeBinary?: string;
	/** Log file name inside the user folder; default n8n.log (one per process when they share a folder). */
	logName?: string;
	/** The readiness probe's URL; default `<origin>/healthz/readiness`. */
	readinessUrl?: string;
}

export interface N8nInstance {
	origin: string;
	port: number;
	userFolder: string;
	logFile: string;
	/** Runs an n8n CLI command (import:*, execute, ...) against the same user folder. */
	cli(args: string[]): Promise<string>;
	/** The last lines of n8n's log, for failure messages. */
	logTail(lines?: number): string;
	/** SIGKILLs n8n's process group (n8n and its task runner) at once: no answer, save or clean-up after. */
	kill(): void;
	stop(): Promise<void>;
}

function n8nEnv(options: N8nOptions, encryptionKey: string, brokerPort: number): NodeJS.ProcessEnv {
	return {
		PATH: process.env.PATH,
		HOME: process.env.HOME,
		TZ: process.env.TZ,
		...OFFLINE_ENV,
		N8N_USER_FOLDER: options.userFolder,
		N8N_PORT: String(options.port),
		N8N_ENCRYPTION_KEY: encryptionKey,
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_LOG_OUTPUT: 'console',
		...options.env,
	};
}

function exited(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
	return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Signals n8n's whole process group (n8n and its task runner). */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	if (child.pid === undefined) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		// Already gone.
	}
}

async function stopChild(child: ChildProcess): Promise<void> {
	signalGroup(child, 'SIGTERM');
	const killer = setTimeout(() => signalGroup(child, 'SIGKILL'), STOP_GRACE_MS);
	await exited(child);
	clearTimeout(killer);
	signalGroup(child, 'SIGKILL');
}

/** A JSON 2xx: while starting, n8n 1.x answers every path with a 200 "n8n is starting up" page. */
async function isReady(url: string): Promise<true | undefined> {
	const response = await fetch(url);
	await response.body?.cancel();
	return response.ok && response.headers.get('content-type')?.includes('json') ? true : undefined;
}

/**
 * Starts `n8n start` in its own process group and resolves once it answers its readiness probe.
 * The encryption key is random: credentials belong to this user folder only.
 */
export async function startN8n(options: N8nOptions): Promise<N8nInstance> {
	if (await portInUse(options.port))
		throw new Error(
			`Port ${options.port} is already in use, so n8n cannot listen there (npm start: N8N_PORT chooses another port)`,
		);
	mkdirSync(options.userFolder, { recursive: true });
	const logFile = path.join(options.userFolder, options.logName ?? 'n8n.log');
	// The log is kept across starts (npm start keeps its user folder): failure messages show this start's lines only.
	const logStart = statSync(logFile, { throwIfNoEntry: false })?.size ?? 0;
	const log = createWriteStream(logFile, { flags: 'a' });
	log.write(
		`--- n8n ${options.command ?? 'start'} on port ${options.port}, ${new Date().toISOString()}\n`,
	);
	const encryptionKey = options.encryptionKey ?? randomBytes(24).toString('hex');
	const env = n8nEnv(options, encryptionKey, await freePort());
	const origin = `http://127.0.0.1:${options.port}`;
	const nodeBinary = options.nodeBinary ?? process.execPath;
	const command = options.command ?? 'start';

	const child = spawn(nodeBinary, [n8nBin(options.installDir), command], {
		cwd: options.userFolder,
		env,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	child.stdout.pipe(log, { end: false });
	child.stderr.pipe(log, { end: false });
	// A crash of the caller (not a signal it handles) must not leave n8n running.
	const killOnExit = (): void => signalGroup(child, 'SIGKILL');
	process.once('exit', killOnExit);

	const logTail = (lines = 40): string =>
		tail(readFileSync(logFile).subarray(logStart).toString('utf8'), lines);
	let stopping: Promise<void> | undefined;
	const stop = (): Promise<void> => {
		stopping ??= stopChild(child).then(() => {
			process.off('exit', killOnExit);
			log.end();
		});
		return stopping;
	};

	const died = exited(child).then(async () => {
		// Its last lines are still on their way through the pipes into the log.
		const closed = new Promise((resolve) => child.once('close', resolve));
		await Promise.race([closed, delay(1_000)]);
		// A stop (or a kill the caller made) may have ended the log already.
		if (!log.writableEnded)
			await new Promise((resolve) => log.write(`--- exited (code ${child.exitCode})\n`, resolve));
		throw new Error(
			`n8n ${command} exited during start-up (code ${child.exitCode}):\n${logTail()}`,
		);
	});
	const readinessUrl = options.readinessUrl ?? `${origin}/healthz/readiness`;
	try {
		await Promise.race([
			waitFor(`n8n ${command} to become ready`, () => isReady(readinessUrl), {
				timeoutMs: BOOT_TIMEOUT_MS,
			}),
			died,
		]);
	} catch (error) {
		await stop();
		throw error;
	}
	died.catch(() => undefined);

	const cli = async (args: string[]): Promise<string> => {
		const cliEnv = {
			...env,
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
			N8N_PORT: String(await freePort()),
		};
		const result = await runCommand(nodeBinary, [n8nBin(options.installDir), ...args], {
			cwd: options.userFolder,
			env: cliEnv,
		});
		return result.stdout;
	};

	return {
		origin,
		port: options.port,
		userFolder: options.userFolder,
		logFile,
		cli,
		logTail,
		kill: () => signalGroup(child, 'SIGKILL'),
		stop,
	};
}
