/**
 * A stand-in for npm in the set-up tests (install.ts runs it through npm_execpath, .ci/node24.sh
 * as `npm` on PATH): each call prints FAKE_NPM_STDERR, takes FAKE_NPM_MS, creates what the real
 * command would leave behind (a Node binary, an npm that is this stand-in at the fetched version,
 * n8n's bin, node_modules/.package-lock.json), and appends what it was asked, its version, the Node
 * it ran on and the npm settings it got to FAKE_NPM_LOG (one JSON line).
 */
import { appendFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const started = Date.now();
const ms = Number(process.env.FAKE_NPM_MS ?? 0);
const version = process.env.FAKE_NPM_VERSION ?? '11.19.1';

function touch(file) {
	mkdirSync(path.dirname(file), { recursive: true });
	writeFileSync(file, '#!/bin/sh\n', { mode: 0o755 });
}

if (args[0] === 'config' && args[1] === 'get' && args[2] === 'globalconfig') {
	process.stdout.write(`${process.env.FAKE_GLOBALCONFIG ?? ''}\n`);
	process.exit(0);
}
if (args[0] === '--version') {
	process.stdout.write(`${version}\n`);
	process.exit(0);
}
if (process.env.FAKE_NPM_STDERR) process.stderr.write(`${process.env.FAKE_NPM_STDERR}\n`);
await new Promise((resolve) => setTimeout(resolve, args[0] === 'install' ? ms : ms / 4));
const nodePackage = args.find((arg) => /^node-[\w-]+@/.test(arg));
const npmPackage = args.find((arg) => arg.startsWith('npm@'));
const prefix = args[args.indexOf('--prefix') + 1];
if (args[0] === 'install' && nodePackage) {
	touch(path.join(prefix, 'node_modules', nodePackage.split('@')[0], 'bin', 'node'));
} else if (args[0] === 'install' && npmPackage) {
	const cli = path.join(prefix, 'node_modules', 'npm', 'bin', 'npm-cli.js');
	touch(cli);
	const self = pathToFileURL(import.meta.filename).href;
	writeFileSync(
		cli,
		`#!/usr/bin/env node\nprocess.env.FAKE_NPM_VERSION = ${JSON.stringify(npmPackage.slice(4))};\nimport(${JSON.stringify(self)});\n`,
	);
	mkdirSync(path.join(prefix, 'node_modules', '.bin'));
	symlinkSync('../npm/bin/npm-cli.js', path.join(prefix, 'node_modules', '.bin', 'npm'));
} else if (args[0] === 'install') {
	touch(path.join(process.cwd(), 'node_modules', 'n8n', 'bin', 'n8n'));
} else if (args[0] === 'ci') {
	touch(path.join(process.cwd(), 'node_modules', '.package-lock.json'));
}
const call = {
	pid: process.pid,
	args,
	version,
	cwd: process.cwd(),
	node: process.version,
	globalconfig: process.env.npm_config_globalconfig,
	nodedir: process.env.npm_config_nodedir,
	gypNodedir: process.env.npm_package_config_node_gyp_nodedir,
	started,
	ended: Date.now(),
};
if (process.env.FAKE_NPM_LOG) appendFileSync(process.env.FAKE_NPM_LOG, `${JSON.stringify(call)}\n`);
