import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { ensureN8nRuntime } from '../support/n8n/install.mts';
import { ARTIFACTS_DIR, PACKAGE_ROOT } from '../support/n8n/paths.mts';
import { contractVersions } from './versions.mts';

/** test-artifacts/contract-n8n-<version>.json: what one release did, written by the suite. */
export function figuresFile(version: string): string {
	return path.join(ARTIFACTS_DIR, `contract-n8n-${version}.json`);
}

/** One line per release of this run's figures (a passing test's own output is not shown). */
function summary(versions: string[], since: number): string {
	const lines = versions.map((version) => {
		const file = figuresFile(version);
		if (!existsSync(file)) return `  n8n ${version}: no figures`;
		const figures = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
		if (Date.parse(String(figures.at)) < since) return `  n8n ${version}: no figures from this run`;
		const rest = Object.entries(figures).filter(([key]) => key !== 'at' && key !== 'version');
		return `  n8n ${version}: ${JSON.stringify(Object.fromEntries(rest))}`;
	});
	return `Contract figures (also in ${ARTIFACTS_DIR}/contract-n8n-*.json):\n${lines.join('\n')}\n`;
}

/**
 * Installs each release the contract suite runs (once, into the cache; instant when cached) one
 * after the other before the suites start them side by side: three cold installs at once would
 * only compete for the same two cores. Prints every release's figures at the end.
 */
export default async function setup(): Promise<() => void> {
	if (!existsSync(path.join(PACKAGE_ROOT, 'dist', 'nodes'))) {
		throw new Error('dist/ is missing: run `npm run build` before the contract tests');
	}
	const versions = contractVersions();
	for (const version of versions) await ensureN8nRuntime(version);
	const since = Date.now();
	return () => {
		process.stdout.write(summary(versions, since));
	};
}
