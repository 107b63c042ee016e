import { spawn, spawnSync } from 'node:child_process';
import type { SpawnOptions } from 'node:child_process';
import { createServer } from 'node:net';

export interface RunResult {
	code: number;
	stdout: string;
	stderr: string;
}

/** A command that exited non-zero (or was stopped for printing nothing); its output is kept for a cleaner report. */
export class CommandFailed extends Error {
	/** "exited with 1", "printed nothing for 1800 s and was stopped" */
	readonly reason: string;
	readonly result: RunResult;

	constructor(command: string, reason: string, result: RunResult) {
		super(`${command} ${reason}\n${tail(result.stderr || result.stdout)}`);
		this.reason = reason;
		this.result = result;
	}
}

/** What to do when a command prints nothing for a while: report it every `afterMs`, stop it after `failAfterMs`. */
export interface QuietWatch {
	afterMs: number;
	failAfterMs?: number;
	checkEveryMs?: number;
	/** Called with how long the command has been quiet and everything it printed so far. */
	report(quietMs: number, output: string): void;
}

export interface RunOptions extends SpawnOptions {
	quiet?: QuietWatch;
}

/** Runs a command to completion, collecting its output; rejects (CommandFailed) when it exits non-zero. */
export function runCommand(
	command: string,
	args: string[],
	{ quiet, ...options }: RunOptions = {},
): Promise<RunResult> {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		let lastOutput = Date.now();
		let reportedQuietMs = 0;
		let gaveUp = false;
		child.stdout?.on('data', (chunk: Buffer) => {
			stdout += chunk.toString();
			lastOutput = Date.now();
		});
		child.stderr?.on('data', (chunk: Buffer) => {
			stderr += chunk.toString();
			lastOutput = Date.now();
		});
		const watch =
			quiet &&
			setInterval(
				() => {
					const quietMs = Date.now() - lastOutput;
					if (quietMs < reportedQuietMs) reportedQuietMs = 0;
					if (quiet.failAfterMs !== undefined && quietMs >= quiet.failAfterMs) {
						gaveUp = true;
						child.kill('SIGTERM');
					} else if (quietMs - reportedQuietMs >= quiet.afterMs) {
						reportedQuietMs = quietMs;
						quiet.report(quietMs, `${stdout}\n${stderr}`);
					}
				},
				quiet.checkEveryMs ?? Math.min(quiet.afterMs / 4, 15_000),
			);
		child.on('error', (error) => {
			clearInterval(watch);
			reject(error);
		});
		child.on('close', (code) => {
			clearInterval(watch);
			const result = { code: code ?? 1, stdout, stderr };
			if (result.code === 0 && !gaveUp) return resolve(result);
			const why = gaveUp
				? `printed nothing for ${Math.round((quiet?.failAfterMs ?? 0) / 1000)} s and was stopped`
				: `exited with ${result.code}`;
			reject(new CommandFailed(`${command} ${args.join(' ')}`, why, result));
		});
	});
}

export function tail(text: string, lines = 40): string {
	return text.trimEnd().split('\n').slice(-lines).join('\n');
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}

/** Whether something listens on 127.0.0.1:`port` (or on every address) already. */
export function portInUse(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const server = createServer();
		server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'EADDRINUSE'));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(false)));
	});
}

export function delay(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Calls `probe` until it returns a value other than undefined, or fails after `timeoutMs`; the
 * failure message ends with what `explain` says, if given.
 */
export async function waitFor<T>(
	what: string,
	probe: () => Promise<T | undefined>,
	{
		timeoutMs = 60_000,
		intervalMs = 250,
		explain,
	}: { timeoutMs?: number; intervalMs?: number; explain?: () => Promise<string> } = {},
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	let lastError: unknown;
	for (;;) {
		try {
			const value = await probe();
			if (value !== undefined) return value;
		} catch (error) {
			lastError = error;
		}
		if (Date.now() > deadline) {
			const reason = lastError instanceof Error ? `: ${lastError.message}` : '';
			const seen = explain ? `\n${await explain().catch(String)}` : '';
			throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${reason}${seen}`);
		}
		await delay(intervalMs);
	}
}

/** Every process below `root` (children, their children, ...), found with `ps` (Linux and macOS). */
export function descendantsOf(root: number): number[] {
	const ps = spawnSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' });
	const children = new Map<number, number[]>();
	for (const line of (ps.stdout ?? '').trim().split('\n')) {
		const [pid, ppid] = line.trim().split(/\s+/).map(Number);
		// `ps` lists itself: as a child of the caller it would never seem to exit.
		if (pid !== ps.pid) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
	}
	const found: number[] = [];
	const queue = [root];
	while (queue.length > 0) {
		for (const child of children.get(queue.shift()!) ?? []) {
			found.push(child);
			queue.push(child);
		}
	}
	return found;
}

/** Whether a process with this id is still running (a zombie counts as gone where `ps` says so). */
export function isRunning(pid: number): boolean {
	const state = spawnSync('ps', ['-o', 'stat=', '-p', String(pid)], {
		encoding: 'utf8',
	}).stdout.trim();
	return state !== '' && !state.startsWith('Z');
}

export interface ServerOptions {
	/** Resolves to true once the server answers (e.g. it accepts connections). */
	ready: () => Promise<true | undefined>;
	/** What `ready` waits for, for the timeout's message. */
	readyWhat: string;
	/** How to install the command, for the message when it cannot be started. */
	installHint: string;
	/** The signal that ends the server cleanly; SIGKILL follows after 10 s. */
	stopSignal?: NodeJS.Signals;
	/** What else tells why the server exited during start-up (its own log). */
	logTail?: () => string;
}

/**
 * Starts a server that runs in the foreground and resolves to its stop once `ready` answers; it is
 * killed when this process exits, and stopped when it fails to start.
 */
export async function startServer(
	command: string,
	args: string[],
	{ ready, readyWhat, installHint, stopSignal = 'SIGTERM', logTail = () => '' }: ServerOptions,
): Promise<() => Promise<void>> {
	const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
	let stderr = '';
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const killOnExit = (): void => {
		child.kill('SIGKILL');
	};
	process.once('exit', killOnExit);
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const failed = new Promise<never>((_, reject) => {
		child.once('error', (error) =>
			reject(new Error(`${command} did not start (${installHint}): ${error.message}`)),
		);
		void exited.then(() => reject(new Error(`${command} exited: ${stderr}${logTail()}`)));
	});
	let stopping: Promise<void> | undefined;
	const stop = (): Promise<void> => {
		stopping ??= (async () => {
			if (child.exitCode === null && child.signalCode === null) child.kill(stopSignal);
			const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
			await exited;
			clearTimeout(killer);
			process.off('exit', killOnExit);
		})();
		return stopping;
	};
	try {
		await Promise.race([waitFor(readyWhat, ready, { timeoutMs: 30_000 }), failed]);
	} catch (error) {
		await stop();
		throw error;
	}
	failed.catch(() => undefined);
	return stop;
}
