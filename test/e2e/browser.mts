import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { chromium } from 'playwright-core';
import type { BrowserContext } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Chromium flags that keep a headless run offline and quiet (see the notes on real n8n). */
const ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--disable-dev-shm-usage',
];

export interface Browser {
	context: BrowserContext;
	close(): Promise<void>;
}

/** Headless Chromium (the Debian package) with a fresh profile. */
export async function launchBrowser(): Promise<Browser> {
	const profile = mkdtempSync(path.join(os.tmpdir(), 'chromium-e2e-'));
	const context = await chromium.launchPersistentContext(profile, {
		executablePath: CHROMIUM_PATH,
		headless: true,
		args: ARGS,
		viewport: { width: 1440, height: 900 },
	});
	return {
		context,
		close: async () => {
			await context.close();
			rmSync(profile, { recursive: true, force: true });
		},
	};
}
