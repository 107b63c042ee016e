import os from 'node:os';
import path from 'node:path';

export const N8N_VERSION = '2.41.1';
export const PACKAGE_NAME = 'n8n-nodes-site-performance-security';
export const PACKAGE_ROOT = path.resolve(import.meta.dirname, '../..');
export const EXAMPLES_DIR = path.join(PACKAGE_ROOT, 'examples');
/** Git-ignored: the `npm start` user folder and a link to the cached n8n install. */
export const LOCAL_DIR = path.join(PACKAGE_ROOT, '.n8n-local');
export const ARTIFACTS_DIR = path.join(PACKAGE_ROOT, 'test-artifacts');

/**
 * Where n8n itself is installed: outside the clone, so fresh clones on one machine share it.
 * Override with N8N_INSTALL_DIR.
 */
export function n8nInstallDir(): string {
	const fromEnv = process.env.N8N_INSTALL_DIR;
	if (fromEnv) return path.resolve(fromEnv);
	const cacheHome = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
	return path.join(cacheHome, PACKAGE_NAME, `n8n-${N8N_VERSION}`);
}

export function n8nBin(installDir: string): string {
	return path.join(installDir, 'node_modules', 'n8n', 'bin', 'n8n');
}
