import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { packPackage } from '../n8n/communityPackage.mts';
import { runCommand } from '../n8n/processes.mts';

export interface UnpackedPackage {
	tarball: string;
	/** The unpacked `package/` folder: what n8n installs and what its scanner lints. */
	dir: string;
	/** Paths inside the package, sorted. */
	files: string[];
}

/** `npm pack` of the built package into a temporary folder, unpacked there. */
export async function packAndUnpack(): Promise<UnpackedPackage> {
	const workDir = mkdtempSync(path.join(os.tmpdir(), 'n8n-nodes-scan-'));
	const tarball = await packPackage(workDir);
	await runCommand('tar', ['-xzf', tarball, '-C', workDir]);
	const { stdout } = await runCommand('tar', ['-tzf', tarball]);
	const files = stdout
		.split('\n')
		.filter((line) => line && !line.endsWith('/'))
		.map((line) => line.replace(/^package\//, ''))
		.sort();
	return { tarball, dir: path.join(workDir, 'package'), files };
}
