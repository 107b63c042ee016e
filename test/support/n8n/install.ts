import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import {
	cacheDir,
	n8nBin,
	n8nInstallDir,
	N8N_VERSION,
	N8N1_NODE_VERSION,
	nodeHome,
} from './paths.ts';
import { runCommand } from './processes.ts';
import type { RunResult } from './processes.ts';
import { progress, timed } from './progress.ts';

/** The private package.json of an n8n install; the overrides work around packages the registry lacks. */
function installPackageJson(version: string): Record<string, unknown> {
	return {
		name: 'n8n-local-install',
		private: true,
		description: 'n8n for npm start and the real-n8n tests of n8n-nodes-site-performance-security',
		dependencies: { n8n: version },
		overrides: { xlsx: 'npm:xlsx@0.18.5', linkedom: '0.18.14' },
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

/** Environment that makes npm, its scripts and node-gyp use the given Node (headers included). */
function envFor(home: string | undefined): NodeJS.ProcessEnv {
	if (!home) return process.env;
	return {
		...process.env,
		PATH: `${path.join(home, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`,
		npm_config_nodedir: home,
	};
}

/** Runs npm in `cwd` on the given Node (its folder first on PATH, its headers for native builds), or the current one. */
export async function runNpm(args: string[], cwd: string, nodeBinary?: string): Promise<RunResult> {
	const home = nodeBinary ? path.dirname(path.dirname(nodeBinary)) : undefined;
	const [command, fullArgs] = npmCommand(args, nodeBinary);
	return await runCommand(command, fullArgs, { cwd, env: envFor(home) });
}

async function npmIn(dir: string, args: string[], home?: string): Promise<void> {
	const nodeBinary = home ? path.join(home, 'bin', 'node') : undefined;
	await runNpm([...args, '--no-audit', '--no-fund', '--loglevel=error'], dir, nodeBinary);
}

/** Fetches a Node release from the npm registry into the cache (once) and returns its binary. */
export async function ensureNodeInstalled(version: string): Promise<string> {
	const home = nodeHome(version);
	const binary = path.join(home, 'bin', 'node');
	if (existsSync(binary)) return binary;
	const prefix = path.join(cacheDir(), `node-${version}`);
	mkdirSync(prefix, { recursive: true });
	await timed(`Fetching Node ${version} from the npm registry into ${prefix}`, () =>
		npmIn(prefix, ['install', '--prefix', prefix, '--no-save', `node@${version}`]),
	);
	if (!existsSync(binary))
		throw new Error(`npm installed node@${version} but ${binary} is missing`);
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
	if (isInstalled(dir, version, runsOn)) {
		progress(`n8n ${version} is installed in ${dir}`);
		return { version, installDir: dir, nodeBinary };
	}
	mkdirSync(dir, { recursive: true });
	writeFileSync(
		path.join(dir, 'package.json'),
		`${JSON.stringify(installPackageJson(version), null, 2)}\n`,
	);
	await timed(
		`Installing n8n ${version} into ${dir} for Node ${runsOn} (first run only; 5-11 minutes)`,
		() => npmIn(dir, ['install', '--ignore-scripts'], home),
	);
	await timed("Building n8n's native modules (sqlite3 compiles; about 2 minutes)", () =>
		npmIn(dir, ['rebuild', 'isolated-vm', 'sqlite3'], home),
	);
	const marker = { version, nodeMajor: nodeMajor(runsOn), at: new Date().toISOString() };
	writeFileSync(path.join(dir, MARKER), JSON.stringify(marker));
	return { version, installDir: dir, nodeBinary };
}

/** The install folder of an n8n release on the current Node (n8n 2.x); see ensureN8nRuntime. */
export async function ensureN8nInstalled(version = N8N_VERSION): Promise<string> {
	return (await ensureN8nRuntime(version)).installDir;
}

/** `node test/support/n8n/install.ts [version...]`: installs each version (default: the one `npm start` uses). */
if (import.meta.main) {
	const versions = process.argv.slice(2);
	for (const version of versions.length > 0 ? versions : [N8N_VERSION])
		await ensureN8nRuntime(version);
}
