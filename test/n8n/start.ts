/**
 * `npm start`: n8n 2.x with this package, the service sandbox and the example workflows, on
 * 127.0.0.1. Ctrl-C stops everything it started.
 *
 * Environment: N8N_PORT (5678), SANDBOX_PORT (5680), N8N_INSTALL_DIR (where n8n is installed).
 */
import { lstatSync, mkdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';

import { n8nInstallDir, LOCAL_DIR } from './paths.ts';
import { progress } from './progress.ts';
import { startStack } from './stack.ts';
import type { Stack } from './stack.ts';

function portFromEnv(name: string, fallback: number): number {
	const port = Number(process.env[name] ?? fallback);
	if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`${name} must be a TCP port, got ${process.env[name]}`);
	return port;
}

/** `.n8n-local/n8n` points at the cached install, so the git-ignored folder shows where n8n lives. */
function linkInstallDir(): void {
	mkdirSync(LOCAL_DIR, { recursive: true });
	const link = path.join(LOCAL_DIR, 'n8n');
	const target = n8nInstallDir();
	const current = lstatSync(link, { throwIfNoEntry: false });
	if (current?.isSymbolicLink() && readlinkSync(link) === target) return;
	if (current) rmSync(link, { recursive: true, force: true });
	symlinkSync(target, link);
}

function summary(stack: Stack): string {
	const { n8n, sandbox, owner, workflows } = stack;
	const control = sandbox.controlUrl;
	const json = `-H 'content-type: application/json'`;
	return [
		'',
		`n8n editor:   ${n8n.origin}`,
		`Sign in:      ${owner.email} / ${owner.password}`,
		`Sandbox:      ${sandbox.origin} (performance ${sandbox.performanceUrl}, security ${sandbox.securityUrl})`,
		'',
		'Example workflows (credentials "Performance Service account" and "Security Service account" point at the sandbox):',
		`  ${workflows.scheduledReoptimize.name}: ${n8n.origin}/workflow/${workflows.scheduledReoptimize.id}`,
		'    open it and click "Execute workflow"',
		`  ${workflows.performanceAlerts.name} (published): ${n8n.origin}/workflow/${workflows.performanceAlerts.id}`,
		`    curl -X POST ${control}/emit ${json} -d '{"type":"audit.regression"}'`,
		`  ${workflows.threatTriage.name} (published, polls every minute): ${n8n.origin}/workflow/${workflows.threatTriage.id}`,
		`    curl -X POST ${control}/security/threats ${json} -d '{"severity":"high","title":"Webshell in uploads"}'`,
		`Messages posted to the chat sink: curl ${control}/chat/messages`,
		`n8n's log: ${n8n.logFile}`,
		'',
		'Press Ctrl-C to stop n8n and the sandbox.',
	].join('\n');
}

async function main(): Promise<void> {
	const state: { stack?: Stack; stopping: boolean } = { stopping: false };
	const stop = (signal: string): void => {
		if (state.stopping) return;
		state.stopping = true;
		progress(`${signal}: stopping n8n and the sandbox`);
		// While starting, exiting is enough: the exit handler of startN8n kills an n8n still booting.
		if (!state.stack) process.exit(130);
		void state.stack.stop().then(() => process.exit(0));
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));

	linkInstallDir();
	state.stack = await startStack({
		userFolder: path.join(LOCAL_DIR, 'user'),
		n8nPort: portFromEnv('N8N_PORT', 5678),
		sandboxPort: portFromEnv('SANDBOX_PORT', 5680),
	});
	console.log(summary(state.stack));
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
