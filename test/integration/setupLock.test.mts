/**
 * Installs into the shared cache take a lock per folder: two installs started together run npm once,
 * the second says whose lock it waits for; a lock left by a killed process is taken over. npm runs
 * with the machine's global npmrc and Node's headers (fakeNpm.mjs records what it got).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { acquireLock, LOCK_TIMING, lockFileFor, tryLock } from '../support/n8n/folderLock.mts';
import type { LockOwner } from '../support/n8n/folderLock.mts';
import { ensureNodeInstalled } from '../support/n8n/install.mts';
import { PACKAGE_ROOT } from '../support/n8n/paths.mts';

const FAKE_NPM = path.join(PACKAGE_ROOT, 'test/support/setup/fakeNpm.mjs');
const INSTALL_CLI = path.join(PACKAGE_ROOT, 'test/support/n8n/install.mts');
const INSTALL_MS = 2_000;

interface NpmCall {
	pid: number;
	args: string[];
	cwd: string;
	globalconfig?: string;
	nodedir?: string;
	gypNodedir?: string;
	started: number;
	ended: number;
}

interface Finished {
	code: number | null;
	output: string;
	endedAt: number;
	/** When it printed that it waits for another install's lock. */
	waitingAt?: number;
}

let dir: string;
let npmLog: string;
let npmCli: string;

beforeEach(() => {
	dir = mkdtempSync(path.join(os.tmpdir(), 'setup-lock-'));
	npmLog = path.join(dir, 'npm-calls.jsonl');
	// install.ts runs npm_execpath on Node when it ends in .js.
	npmCli = path.join(dir, 'npm-cli.js');
	writeFileSync(npmCli, `import(${JSON.stringify(pathToFileURL(FAKE_NPM).href)});\n`);
});

afterEach(() => {
	vi.unstubAllEnvs();
	rmSync(dir, { recursive: true, force: true });
});

function npmCalls(): NpmCall[] {
	try {
		return readFileSync(npmLog, 'utf8')
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line) as NpmCall);
	} catch {
		return [];
	}
}

function fakeNpmEnv(): NodeJS.ProcessEnv {
	return {
		XDG_CACHE_HOME: path.join(dir, 'cache'),
		npm_execpath: npmCli,
		FAKE_NPM_MS: String(INSTALL_MS),
		FAKE_NPM_LOG: npmLog,
		npm_config_globalconfig: path.join(dir, 'machine-npmrc'),
	};
}

function runInstall(): Promise<Finished> {
	const child = spawn(process.execPath, [INSTALL_CLI], {
		cwd: PACKAGE_ROOT,
		env: { ...process.env, N8N_INSTALL_DIR: '', ...fakeNpmEnv() },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	let waitingAt: number | undefined;
	const collect = (chunk: Buffer): void => {
		output += chunk.toString();
		if (waitingAt === undefined && output.includes('waiting for it to finish'))
			waitingAt = Date.now();
	};
	child.stdout.on('data', collect);
	child.stderr.on('data', collect);
	return new Promise((resolve) =>
		child.on('close', (code) => resolve({ code, output, endedAt: Date.now(), waitingAt })),
	);
}

/** A process id that no process has any more. */
function deadPid(): number {
	const child = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], {
		encoding: 'utf8',
	});
	return Number(child.stdout.trim());
}

function writeLock(file: string, owner: LockOwner): void {
	writeFileSync(file, `${JSON.stringify(owner)}\n`);
}

describe('two installs of one n8n version started together', () => {
	it('run npm once: the second waits, naming the lock holder, then finds n8n installed', async () => {
		const started = Date.now();
		const [first, second] = await Promise.all([runInstall(), runInstall()]);
		const total = Date.now() - started;
		expect(first.code, first.output).toBe(0);
		expect(second.code, second.output).toBe(0);

		const calls = npmCalls();
		const installs = calls.filter((call) => call.args[0] === 'install');
		expect(installs).toHaveLength(1);
		const rebuild = calls.find((call) => call.args[0] === 'rebuild');
		expect(rebuild?.args).toContain('--foreground-scripts');

		const [winner, waiter] = first.output.includes('waiting for it to finish')
			? [second, first]
			: [first, second];
		expect(waiter.output).toMatch(
			/n8n 2\.\d+\.\d+ is being installed by pid \d+ \(node .*install\.mts\), since \d\d:\d\d:\d\d UTC \(lock .*\.lock\): waiting for it to finish/,
		);
		expect(waiter.output).toContain('is installed in');
		expect(winner.output).not.toContain('waiting');
		console.log(
			`two locked installs: npm ran once (install ${installs[0].ended - installs[0].started} ms); the second waited ${waiter.endedAt - waiter.waitingAt!} ms from its "waiting" line and finished ${waiter.endedAt - winner.endedAt} ms after the first; total ${total} ms`,
		);
		expect(waiter.endedAt).toBeGreaterThanOrEqual(installs[0].ended);
		expect(total).toBeLessThan(30_000);
	}, 60_000);

	it('gives npm the machine global npmrc and Node headers', async () => {
		const finished = await runInstall();
		expect(finished.code, finished.output).toBe(0);
		const nodeHome = path.dirname(path.dirname(process.execPath));
		for (const call of npmCalls()) {
			expect(call.globalconfig).toBe(path.join(dir, 'machine-npmrc'));
			if (call.args[0] === 'rebuild') {
				expect(call.nodedir).toBe(nodeHome);
				expect(call.gypNodedir).toBe(nodeHome);
			}
		}
	}, 60_000);
});

describe('the lock of a Node release folder', () => {
	it('is taken over from a killed process, and npm fetches Node with the global npmrc npm reported', async () => {
		const env = fakeNpmEnv();
		for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
		// Not exported: install.ts asks npm (`npm config get globalconfig`), as on a machine without node24.sh.
		vi.stubEnv('npm_config_globalconfig', '');
		const machineNpmrc = path.join(dir, 'asked-npmrc');
		writeFileSync(machineNpmrc, 'cafile=/nowhere\n');
		vi.stubEnv('FAKE_GLOBALCONFIG', machineNpmrc);
		const prefix = path.join(dir, 'cache', 'n8n-nodes-site-performance-security', 'node-22.0.0');
		const pid = deadPid();
		const lockFile = lockFileFor(prefix);
		mkdirSync(path.dirname(lockFile), { recursive: true });
		writeLock(lockFile, {
			pid,
			hostname: os.hostname(),
			command: 'node install.ts (killed)',
			startedAt: new Date().toISOString(),
		});

		// The progress lines go to stderr, which vitest does not silence: kept here and checked.
		const lines: string[] = [];
		const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
			lines.push(String(chunk));
			return true;
		});
		const started = Date.now();
		let binary: string;
		try {
			binary = await ensureNodeInstalled('22.0.0');
		} finally {
			stderr.mockRestore();
		}
		expect(binary).toBe(
			path.join(prefix, 'node_modules', `node-${process.platform}-${process.arch}`, 'bin', 'node'),
		);
		expect(Date.now() - started).toBeLessThan(INSTALL_MS + 5_000);
		expect(lines.join('')).toMatch(
			new RegExp(
				`^\\[n8n\\] Taking over the lock on Node 22\\.0\\.0 from pid ${pid} \\(node install\\.ts \\(killed\\)\\), since .*: its process \\(pid ${pid}\\) is gone\n` +
					`\\[n8n\\] Fetching Node 22\\.0\\.0 from the npm registry into .*node-22\\.0\\.0 \\.\\.\\.\n` +
					`\\[n8n\\]   done in \\d+\\.\\d s\n$`,
			),
		);
		const [fetch] = npmCalls();
		expect(fetch.args).toEqual(
			expect.arrayContaining([
				'install',
				'--prefix',
				prefix,
				`node-${process.platform}-${process.arch}@22.0.0`,
			]),
		);
		expect(fetch.globalconfig).toBe(machineNpmrc);
		expect(existsSync(lockFile)).toBe(false);
	}, 30_000);
});

describe('tryLock and acquireLock', () => {
	const fast = { ...LOCK_TIMING, pollMs: 50, reportEveryMs: 200, heartbeatMs: 100 };

	it('leaves a lock of a live process alone and reports whose it is', async () => {
		const file = path.join(dir, 'folder.lock');
		const sleeper = spawn('sleep', ['30']);
		try {
			const owner = {
				pid: sleeper.pid!,
				hostname: os.hostname(),
				command: 'sleep 30',
				startedAt: new Date().toISOString(),
			};
			writeLock(file, owner);
			const result = tryLock(file, fast);
			expect('heldBy' in result && result.heldBy.owner).toEqual(owner);

			const lines: string[] = [];
			const waiting = acquireLock(file, 'folder', fast, (line) => lines.push(line));
			await new Promise((resolve) => setTimeout(resolve, 500));
			expect(lines[0]).toMatch(/^folder is being installed by pid \d+ \(sleep 30\)/);
			expect(lines.some((line) => line.includes('still waiting for pid'))).toBe(true);
			rmSync(file);
			const lock = await waiting;
			expect(lines.at(-1)).toMatch(/^Got the lock on folder after \d+ s/);
			expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ pid: process.pid });
			lock.release();
			expect(() => readFileSync(file)).toThrow();
		} finally {
			sleeper.kill();
		}
	});

	it('takes over a lock from another host once it is not touched for staleAfterMs', () => {
		const file = path.join(dir, 'folder.lock');
		writeLock(file, {
			pid: process.pid,
			hostname: 'elsewhere',
			command: 'npm start',
			startedAt: new Date(Date.now() - 60_000).toISOString(),
		});
		const fresh = tryLock(file, { ...fast, staleAfterMs: 60_000 });
		expect('heldBy' in fresh).toBe(true);
		const reasons: string[] = [];
		const taken = tryLock(file, { ...fast, staleAfterMs: 0 }, (reason) => reasons.push(reason));
		expect('heldBy' in taken).toBe(false);
		expect(reasons[0]).toMatch(/has not touched the lock/);
		if (!('heldBy' in taken)) taken.release();
	});

	it('lets one of many processes taking over a dead lock at once hold it', async () => {
		const file = path.join(dir, 'folder.lock');
		writeLock(file, {
			pid: deadPid(),
			hostname: os.hostname(),
			command: 'killed',
			startedAt: new Date().toISOString(),
		});
		const script = `
			import { tryLock } from ${JSON.stringify(pathToFileURL(path.join(PACKAGE_ROOT, 'test/support/n8n/folderLock.mts')).href)};
			const result = tryLock(${JSON.stringify(file)});
			console.log('heldBy' in result ? 'waits' : 'holds');
			await new Promise((resolve) => setTimeout(resolve, 5000));
		`;
		const results = await Promise.all(
			Array.from(
				{ length: 4 },
				() =>
					new Promise<string>((resolve) => {
						const child = spawn(process.execPath, ['--input-type=module', '-e', script]);
						let out = '';
						child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
						child.on('close', () => resolve(out.trim()));
					}),
			),
		);
		expect(results.filter((result) => result === 'holds')).toHaveLength(1);
	}, 30_000);
});
