/**
 * `npm run scan`: n8n's community-package scanner (`@n8n/scan-community-package`) over this
 * package, offline. Its `analyzePackage` is the static analysis n8n's verification runs; here it
 * lints the sources (the scanner's own source patterns: package.json, nodes/, credentials/) and
 * every file of the packed tarball, and the tarball must hold only what n8n loads and users read.
 * Exits 1 on any finding. Needs a build (`npm run scan` builds first).
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

import {
	analyzePackage,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';
import type { AnalysisResult } from '@n8n/scan-community-package/scanner/scanner.mjs';

import { PACKAGE_ROOT } from '../n8n/paths.mts';
import { packAndUnpack } from './pack.mts';
import { missingDeclaredFiles, unexpectedPackageFiles } from './packageFiles.mts';

function report(label: string, result: AnalysisResult): boolean {
	if (result.passed) {
		console.log(`scan ${label}: 0 findings`);
		return true;
	}
	console.log(`scan ${label}: ${result.message ?? 'failed'}`);
	if (result.details) console.log(result.details);
	return false;
}

async function main(): Promise<void> {
	const packed = await packAndUnpack();
	try {
		console.log(`packed ${path.basename(packed.tarball)}: ${packed.files.length} files`);
		const unexpected = unexpectedPackageFiles(packed.files);
		const manifest = JSON.parse(readFileSync(path.join(packed.dir, 'package.json'), 'utf8')) as {
			n8n: { nodes?: string[]; credentials?: string[] };
		};
		const missing = missingDeclaredFiles(packed.files, manifest.n8n);
		const sources = report('sources', await analyzePackage(PACKAGE_ROOT, SOURCE_FILE_PATTERNS));
		const tarball = report('tarball', await analyzePackage(packed.dir));
		if (unexpected.length > 0)
			console.log(`tarball holds files users do not need:\n  ${unexpected.join('\n  ')}`);
		if (missing.length > 0)
			console.log(
				`tarball lacks files package.json declares to n8n (run npm run build):\n  ${missing.join('\n  ')}`,
			);
		process.exitCode =
			sources && tarball && unexpected.length === 0 && missing.length === 0 ? 0 : 1;
	} finally {
		rmSync(path.dirname(packed.dir), { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
