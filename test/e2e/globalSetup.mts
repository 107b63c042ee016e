import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { TestProject } from 'vitest/node';

import { PACKAGE_ROOT } from '../support/n8n/paths.mts';
import { freePort } from '../support/n8n/processes.mts';
import { startStack } from '../support/n8n/stack.mts';
import type { E2eContext } from './context.mts';

/**
 * Boots one sandbox and one n8n (with the packed package and the examples) for the whole e2e
 * project, on free ports; the test files reach them over HTTP.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
	if (!existsSync(path.join(PACKAGE_ROOT, 'dist', 'nodes'))) {
		throw new Error('dist/ is missing: run `npm run build` before the e2e tests');
	}
	const userFolder = mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-'));
	const stack = await startStack({
		userFolder,
		n8nPort: await freePort(),
		sandboxPort: await freePort(),
	});
	const { sandbox, n8n, owner, workflows, credentialIds } = stack;
	const context: E2eContext = {
		n8nOrigin: n8n.origin,
		n8nLogFile: n8n.logFile,
		owner: { email: owner.email, password: owner.password },
		cookie: stack.client.cookie,
		apiKey: stack.client.apiKey ?? '',
		sandbox: {
			origin: sandbox.origin,
			controlUrl: sandbox.controlUrl,
			performanceUrl: sandbox.performanceUrl,
			securityUrl: sandbox.securityUrl,
			tokens: sandbox.tokens,
			securityKey: sandbox.securityKey,
			signingSecret: sandbox.signingSecret,
		},
		credentialIds,
		workflowIds: {
			scheduledReoptimize: workflows.scheduledReoptimize.id,
			performanceAlerts: workflows.performanceAlerts.id,
			threatTriage: workflows.threatTriage.id,
			siteHealthAlerts: workflows.siteHealthAlerts.id,
			instantThreatAlerts: workflows.instantThreatAlerts.id,
		},
		publishedAt: Date.now(),
		// Added now, so the polls during the other files list it before its test changes its status.
		watchedSite: { ...sandbox.addSite('HEALTHY'), addedAt: Date.now() },
	};
	project.provide('e2e', context);
	return async () => {
		await stack.stop();
		rmSync(userFolder, { recursive: true, force: true });
	};
}
