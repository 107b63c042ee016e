import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { n8nBin, n8nInstallDir, N8N_VERSION } from './paths.ts';
import { runCommand } from './processes.ts';
import { progress, timed } from './progress.ts';

/** The private package.json of the n8n install; the overrides work around packages the registry lacks. */
const INSTALL_PACKAGE_JSON = {
	name: 'n8n-local-install',
	private: true,
	description: 'n8n for npm start and the e2e tests of n8n-nodes-site-performance-security',
	dependencies: { n8n: N8N_VERSION },
	overrides: { xlsx: 'npm:xlsx@0.18.5', linkedom: '0.18.14' },
};
const MARKER = '.install-complete';

/** npm as the current npm run uses it, or the one on PATH. */
export function npmCommand(args: string[]): [string, string[]] {
	const npmCli = process.env.npm_execpath;
	return npmCli && npmCli.endsWith('.js') ? [process.execPath, [npmCli, ...args]] : ['npm', args];
}

function isInstalled(dir: string): boolean {
	const marker = path.join(dir, MARKER);
	if (!existsSync(marker) || !existsSync(n8nBin(dir))) return false;
	const recorded = JSON.parse(readFileSync(marker, 'utf8')) as { version?: string };
	return recorded.version === N8N_VERSION;
}

async function npmIn(dir: string, args: string[]): Promise<void> {
	const [command, fullArgs] = npmCommand([...args, '--no-audit', '--no-fund', '--loglevel=error']);
	await runCommand(command, fullArgs, { cwd: dir, env: process.env });
}

/**
 * Installs n8n once into the cache folder (`npm install --ignore-scripts`, then the two native
 * modules n8n needs), and returns that folder. A marker written after success makes later calls instant.
 */
export async function ensureN8nInstalled(): Promise<string> {
	const dir = n8nInstallDir();
	if (isInstalled(dir)) {
		progress(`n8n ${N8N_VERSION} is installed in ${dir}`);
		return dir;
	}
	mkdirSync(dir, { recursive: true });
	writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(INSTALL_PACKAGE_JSON, null, 2)}\n`);
	await timed(`Installing n8n ${N8N_VERSION} into ${dir} (first run only; about 5 minutes)`, () =>
		npmIn(dir, ['install', '--ignore-scripts']),
	);
	await timed('Building n8n\'s native modules (sqlite3 compiles; about 2 minutes)', () =>
		npmIn(dir, ['rebuild', 'isolated-vm', 'sqlite3']),
	);
	writeFileSync(path.join(dir, MARKER), JSON.stringify({ version: N8N_VERSION, at: new Date().toISOString() }));
	return dir;
}

if (import.meta.main) {
	await ensureN8nInstalled();
}
