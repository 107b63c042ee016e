/**
 * The set-up's one-line hints and its watch on a quiet npm: a stalled install names npm's last
 * lines and their likely cause; a busy port or a running `npm start` is named before anything
 * starts; n8n's failure shows this start's log only; stopping no longer waits on `ps` itself.
 * What the scripts say on an old Node: setupNode24.test.mts.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { ensureNodeInstalled, NPM_QUIET } from '../support/n8n/install.mts';
import { startN8n } from '../support/n8n/instance.mts';
import { PACKAGE_ROOT } from '../support/n8n/paths.mts';
import { CommandFailed, freePort, runCommand } from '../support/n8n/processes.mts';
import { startProblem } from '../support/setup/startPreflight.mts';

const TLS_LINE =
	'npm http fetch GET https://registry.npmjs.org/n8n attempt 1 failed with SELF_SIGNED_CERT_IN_CHAIN';

let dir: string;
let busy: Server | undefined;

beforeEach(() => {
	dir = mkdtempSync(path.join(os.tmpdir(), 'setup-hints-'));
});

afterEach(async () => {
	vi.restoreAllMocks();
	vi.unstubAllEnvs();
	await new Promise((resolve) => (busy ? busy.close(resolve) : resolve(undefined)));
	busy = undefined;
	rmSync(dir, { recursive: true, force: true });
});

async function busyPort(): Promise<number> {
	const port = await freePort();
	busy = createServer();
	await new Promise<void>((resolve) => busy!.listen(port, '127.0.0.1', resolve));
	return port;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}) {
	return spawnSync(command, args, {
		cwd: PACKAGE_ROOT,
		encoding: 'utf8',
		env: { ...process.env, ...env },
	});
}

describe('a quiet command', () => {
	it('is reported with what it printed, and stopped after failAfterMs', async () => {
		const reports: Array<{ quietMs: number; output: string }> = [];
		const quiet = {
			afterMs: 300,
			checkEveryMs: 50,
			report: (quietMs: number, output: string) => reports.push({ quietMs, output }),
		};
		await runCommand('sh', ['-c', `echo '${TLS_LINE}' >&2; sleep 1; echo done`], { quiet });
		expect(reports.length).toBeGreaterThanOrEqual(1);
		expect(reports[0].quietMs).toBeGreaterThanOrEqual(300);
		expect(reports[0].output).toContain(TLS_LINE);

		const started = Date.now();
		const stopped = runCommand('sleep', ['20'], { quiet: { ...quiet, failAfterMs: 500 } });
		await expect(stopped).rejects.toThrow(CommandFailed);
		await expect(stopped).rejects.toThrow(/printed nothing for \d+ s and was stopped/);
		expect(Date.now() - started).toBeLessThan(5_000);
	});

	it("in an install: says it is stalled, shows npm's last lines and names the likely cause", async () => {
		const npmCli = path.join(dir, 'npm-cli.js');
		const fakeNpm = pathToFileURL(path.join(PACKAGE_ROOT, 'test/support/setup/fakeNpm.mjs'));
		writeFileSync(npmCli, `import(${JSON.stringify(fakeNpm.href)});\n`);
		vi.stubEnv('XDG_CACHE_HOME', path.join(dir, 'cache'));
		vi.stubEnv('npm_execpath', npmCli);
		vi.stubEnv('npm_config_globalconfig', path.join(dir, 'npmrc'));
		vi.stubEnv('FAKE_NPM_MS', '1500');
		vi.stubEnv('FAKE_NPM_STDERR', TLS_LINE);
		const lines: string[] = [];
		vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
			lines.push(String(chunk));
			return true;
		});
		const { afterMs } = NPM_QUIET;
		NPM_QUIET.afterMs = 500;
		try {
			await ensureNodeInstalled('22.0.1');
		} finally {
			NPM_QUIET.afterMs = afterMs;
		}
		const report = lines.join('');
		expect(report).toMatch(
			/Fetching Node 22\.0\.1 seems stalled: npm printed nothing for \d+ s \(still waiting\)\. Likely cause: npm does not trust the registry's certificate/,
		);
		expect(report).toContain(`npm's last lines:\n    ${TLS_LINE}`);
	});
});

describe('before npm start starts anything', () => {
	it('names a busy port and the setting that chooses another', async () => {
		const port = await busyPort();
		const sandboxPort = await freePort();
		const problem = await startProblem({
			userFolder: path.join(dir, 'user'),
			n8nPort: port,
			sandboxPort,
		});
		expect(problem).toBe(
			`Port ${port} (N8N_PORT) is already in use by another program: stop it, or choose another port, e.g. N8N_PORT=${port + 10} npm start`,
		);
		const cli = run(
			process.execPath,
			['--disable-warning=MODULE_TYPELESS_PACKAGE_JSON', 'test/support/setup/startPreflight.mts'],
			{
				DEMO_USER_FOLDER: path.join(dir, 'user'),
				N8N_PORT: String(sandboxPort),
				SANDBOX_PORT: String(port),
			},
		);
		expect(cli.status).toBe(1);
		expect(cli.stderr.trim().split('\n')).toEqual([
			`Port ${port} (SANDBOX_PORT) is already in use by another program: stop it, or choose another port, e.g. SANDBOX_PORT=${port + 10} npm start`,
		]);
	});

	it('names the npm start that runs on the same user folder (its pid from .n8n-local/user.lock)', async () => {
		const userFolder = path.join(dir, 'user');
		const running = spawn('sleep', ['30']);
		try {
			// What npm start's lock holds (folderLock.mts): the lock folder, fresh, and its owner file.
			mkdirSync(`${userFolder}.lock`);
			writeFileSync(
				`${userFolder}.lock-owner.json`,
				JSON.stringify({
					pid: running.pid,
					hostname: os.hostname(),
					command: 'node test/support/n8n/start.mts',
					startedAt: '2026-11-24T10:31:07.000Z',
				}),
			);
			const problem = await startProblem({ userFolder, n8nPort: 5678, sandboxPort: 5680 });
			expect(problem).toMatch(
				new RegExp(
					`^npm start is already running for .*user: pid ${running.pid} \\(node test/support/n8n/start.mts\\), since 10:31:07 UTC\\. Use that one, stop it \\(Ctrl-C in its terminal, or kill ${running.pid}\\), or start a second one with its own folder and ports: DEMO_USER_FOLDER=.*user2 N8N_PORT=5688 SANDBOX_PORT=5690 npm start$`,
				),
			);
		} finally {
			running.kill();
		}
	});

	it('npm run sandbox on a busy port says so in one line', async () => {
		const port = await busyPort();
		const result = run(process.execPath, [
			'--disable-warning=MODULE_TYPELESS_PACKAGE_JSON',
			'test/support/sandbox/cli.mts',
			'--port',
			String(port),
		]);
		expect(result.status).toBe(1);
		expect(result.stderr).toBe(
			`Port ${port} is already in use (is \`npm start\` or another sandbox running?): stop that, or choose another port with --port or PORT\n`,
		);
	});
});

describe('starting n8n', () => {
	it('checks its port first', async () => {
		const port = await busyPort();
		await expect(
			startN8n({ installDir: path.join(dir, 'none'), userFolder: path.join(dir, 'user'), port }),
		).rejects.toThrow(
			`Port ${port} is already in use, so n8n cannot listen there (npm start: N8N_PORT chooses another port)`,
		);
	});

	it("shows this start's log lines only when n8n exits during start-up", async () => {
		const installDir = path.join(dir, 'n8n');
		const bin = path.join(installDir, 'node_modules/n8n/bin/n8n');
		mkdirSync(path.dirname(bin), { recursive: true });
		writeFileSync(bin, "console.log('this start failed'); process.exit(3);\n");
		const userFolder = path.join(dir, 'user');
		mkdirSync(userFolder);
		writeFileSync(
			path.join(userFolder, 'n8n.log'),
			'Error: an earlier session\n    at stack.js:1:1\n',
		);
		const failure = startN8n({ installDir, userFolder, port: await freePort() });
		await expect(failure).rejects.toThrow(/this start failed/);
		await expect(failure).rejects.not.toThrow(/earlier session/);
	});
});

describe('descendantsOf', () => {
	it('does not count the ps it runs (stopping npm start waited 10 s for it)', () => {
		const script = `import { descendantsOf } from ${JSON.stringify(pathToFileURL(path.join(PACKAGE_ROOT, 'test/support/n8n/processes.mts')).href)};
			console.log(JSON.stringify(descendantsOf(process.pid)));`;
		const result = run(process.execPath, ['--input-type=module', '-e', script]);
		expect(result.stdout.trim()).toBe('[]');
	});
});
