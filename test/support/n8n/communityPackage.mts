import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { runNpm } from './install.mts';
import { PACKAGE_ROOT } from './paths.mts';
import { runCommand } from './processes.mts';

interface PackageJson {
	name: string;
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
 * Installs tarballs into `<userFolder>/.n8n/nodes` the way n8n's own community-package install
 * does (packages/cli community-packages.service downloadPackage): unpack each into
 * node_modules/<name>, drop dev/peer/optional dependencies, `npm install` inside it with n8n's
 * flags, and record every package in the folder's package.json. Returns npm's output.
 */
export async function installTarballs(
	userFolder: string,
	tarballs: string[],
	options: { nodeBinary?: string } = {},
): Promise<string> {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const dependencies: Record<string, string> = {};
	let output = '';
	for (const tarball of tarballs) {
		const unpacked = path.join(nodesDir, 'node_modules', `.unpack-${path.basename(tarball)}`);
		rmSync(unpacked, { recursive: true, force: true });
		mkdirSync(unpacked, { recursive: true });
		await runCommand('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);
		const manifest = readJson(path.join(unpacked, 'package.json'));
		const packageDir = path.join(nodesDir, 'node_modules', manifest.name);
		rmSync(packageDir, { recursive: true, force: true });
		await runCommand('mv', [unpacked, packageDir]);
		for (const kind of ['devDependencies', 'peerDependencies', 'optionalDependencies'] as const)
			delete manifest[kind];
		writeFileSync(path.join(packageDir, 'package.json'), JSON.stringify(manifest, null, 2));
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
		output += `${install.stdout}${install.stderr}`;
		dependencies[manifest.name] = manifest.version;
	}
	writeFileSync(
		path.join(nodesDir, 'package.json'),
		JSON.stringify({ name: 'installed-nodes', private: true, dependencies }, null, 2),
	);
	return output;
}

/** Packs this package (dist/ must exist) and installs it as n8n does; returns npm's output. */
export async function installCommunityPackage(
	userFolder: string,
	options: { nodeBinary?: string } = {},
): Promise<string> {
	const scratch = mkdtempSync(path.join(os.tmpdir(), 'n8n-pack-'));
	try {
		return await installTarballs(userFolder, [await packPackage(scratch)], options);
	} finally {
		rmSync(scratch, { recursive: true, force: true });
	}
}
