/**
 * `node test/contract/registryVersions.mts`: prints `N8N_CONTRACT_VERSIONS=<newest 1.x>,<pinned
 * 2.x>,<newest 2.x>` as the npm registry serves them today (the weekly contract workflow appends
 * it to $GITHUB_ENV). The newest 2.x is the `latest` tag; the newest 1.x is the highest 1.x by
 * version number: `npm view n8n@1 version` lists versions in publication order, not by number
 * (its last line was 1.95.0 while 1.123.81 existed).
 */
import { execFileSync } from 'node:child_process';

import { N8N_VERSION } from '../support/n8n/paths.mts';

type Version = [number, number, number];

function parse(version: string): Version | undefined {
	const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(version);
	return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

function compare(a: Version, b: Version): number {
	return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** The highest release (no pre-release) of a major version among `versions`. */
export function newestOfMajor(versions: string[], major: number): string | undefined {
	const releases = versions
		.map((version) => [version, parse(version)] as const)
		.filter((entry): entry is readonly [string, Version] => entry[1]?.[0] === major);
	releases.sort((a, b) => compare(a[1], b[1]));
	return releases.at(-1)?.[0];
}

function npmView<T>(args: string[]): T {
	const stdout = execFileSync('npm', ['view', ...args, '--json'], {
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	return JSON.parse(stdout) as T;
}

if (import.meta.main) {
	const versions = npmView<string[]>(['n8n', 'versions']);
	const latest = npmView<string>(['n8n', 'dist-tags.latest']);
	const newest1 = newestOfMajor(versions, 1);
	if (!newest1) throw new Error('The registry lists no n8n 1.x release');
	const listed = [...new Set([newest1, N8N_VERSION, latest])];
	process.stdout.write(`N8N_CONTRACT_VERSIONS=${listed.join(',')}\n`);
}
