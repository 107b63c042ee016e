import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { runNpm } from './install.mts';
import { PACKAGE_NAME, PACKAGE_ROOT } from './paths.mts';
import { runCommand } from './processes.mts';

interface PackageJson {
	version: string;
	dependencies?: Record<string, string>;
	devDependencies?: Record<string, string>;
	peerDependencies?: Record<string, string>;
	optionalDependencies?: Record<string, string>;
}

function readJson(file: string): PackageJson {
	return JSON.parse(readFileSync(file, 'utf8')) as PackageJson;
}

async function npm(args: string[], cwd: string): Promise<string> {
	return (await runNpm(args, cwd)).stdout;
}

/** `npm pack` of the built package (dist/ must exist); returns the tarball's path. */
export async function packPackage(destination: string): Promise<string> {
	const output = await npm(['pack', '--quiet', '--pack-destination', destination], PACKAGE_ROOT);
	const tarball = output.trim().split('\n').at(-1);
	if (!tarball) throw new Error('npm pack printed no tarball name');
	return path.join(destination, tarball);
}

/**
 * Installs the package into `<userFolder>/.n8n/nodes` the way n8n's own community-package
 * install does (packages/cli community-packages.service downloadPackage): unpack into
 * node_modules/<name>, drop dev/peer/optional dependencies, `npm install` inside it with n8n's
 * flags, and record the dependency in the folder's package.json. Returns npm's output of that install.
 */
export async function installCommunityPackage(
	userFolder: string,
	options: { nodeBinary?: string } = {},
): Promise<string> {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const packageDir = path.join(nodesDir, 'node_modules', PACKAGE_NAME);
	const scratch = mkdtempSync(path.join(os.tmpdir(), 'n8n-pack-'));
	try {
		const tarball = await packPackage(scratch);
		rmSync(packageDir, { recursive: true, force: true });
		mkdirSync(packageDir, { recursive: true });
		await runCommand('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1']);

		const manifestPath = path.join(packageDir, 'package.json');
		const manifest = readJson(manifestPath);
		for (const kind of ['devDependencies', 'peerDependencies', 'optionalDependencies'] as const)
			delete manifest[kind];
		writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
		// On the Node n8n runs on: npm warns there (EBADENGINE) when the package's engines exclude it.
		const install = await runNpm(
			[
				'install',
				'--audit=false',
				'--fund=false',
				'--bin-links=false',
				'--install-strategy=shallow',
				'--ignore-scripts=true',
				'--package-lock=false',
			],
			packageDir,
			options.nodeBinary,
		);
		writeFileSync(
			path.join(nodesDir, 'package.json'),
			JSON.stringify(
				{
					name: 'installed-nodes',
					private: true,
					dependencies: { [PACKAGE_NAME]: manifest.version },
				},
				null,
				2,
			),
		);
		return `${install.stdout}${install.stderr}`;
	} finally {
		rmSync(scratch, { recursive: true, force: true });
	}
}
