/**
 * `npm test` writes nothing into the user's home folder: n8n-core's InstanceSettings, which the
 * harness loads, would write `<HOME>/.n8n/config` (an encryption key) without vitest.config.mts's
 * N8N_USER_FOLDER, which points into the clone's git-ignored `.n8n-local/`. One integration file
 * runs with a fresh, empty HOME, as a first `npm test` on a new machine would.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, expect, it } from 'vitest';

import { LOCAL_DIR, PACKAGE_ROOT } from '../support/n8n/paths.mts';

const home = mkdtempSync(path.join(os.tmpdir(), 'setup-home-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

it("runs the harness with n8n-core's user folder in the clone and leaves HOME empty", () => {
	const vitest = path.join(PACKAGE_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
	const result = spawnSync(
		process.execPath,
		[vitest, 'run', '--project', 'integration', 'test/integration/credentialReads.test.mts'],
		{
			cwd: PACKAGE_ROOT,
			encoding: 'utf8',
			env: { PATH: process.env.PATH, HOME: home, TMPDIR: os.tmpdir() },
		},
	);
	expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
	expect(readdirSync(home)).toEqual([]);
	expect(existsSync(path.join(LOCAL_DIR, 'vitest', '.n8n', 'config'))).toBe(true);
}, 180_000);
