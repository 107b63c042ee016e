import { spawn, spawnSync } from 'node:child_process';
import type { SpawnOptions } from 'node:child_process';
import { createServer } from 'node:net';

export interface RunResult {
	code: number;
	stdout: string;
	stderr: string;
}

/** Runs a command to completion, collecting its output; rejects when it exits non-zero. */
export function runCommand(
	command: string,
	args: string[],
	options: SpawnOptions = {},
): Promise<RunResult> {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		child.on('error', reject);
		child.on('close', (code) => {
			const result = { code: code ?? 1, stdout, stderr };
			if (result.code === 0) resolve(result);
			else
				reject(
					new Error(
						`${command} ${args.join(' ')} exited with ${result.code}\n${tail(stderr || stdout)}`,
					),
				);
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

export function delay(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Calls `probe` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function waitFor<T>(
	what: string,
	probe: () => Promise<T | undefined>,
	{ timeoutMs = 60_000, intervalMs = 250 } = {},
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
			throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${reason}`);
		}
		await delay(intervalMs);
	}
}

/** Every process below `root` (children, their children, ...), found with `ps` (Linux and macOS). */
export function descendantsOf(root: number): number[] {
	const listing = spawnSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' }).stdout ?? '';
	const children = new Map<number, number[]>();
	for (const line of listing.trim().split('\n')) {
		const [pid, ppid] = line.trim().split(/\s+/).map(Number);
		children.set(ppid, [...(children.get(ppid) ?? []), pid]);
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
