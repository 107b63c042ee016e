/**
 * `npm start`: n8n 2.x with this package, the service sandbox and the example workflows, on
 * 127.0.0.1. The n8n user folder (`.n8n-local/user`) is kept between starts; `--reset` starts
 * from a clean one. SIGINT, SIGTERM or SIGHUP from any parent, or the parent going away, stops
 * everything it started. While it runs it holds the lock of its user folder (folderLock.mts), so a
 * second start on the same folder, or on busy ports, is refused with one line naming the cause.
 *
 * Environment: N8N_PORT (5678), SANDBOX_PORT (5680), N8N_INSTALL_DIR (where n8n is installed),
 * DEMO_USER_FOLDER (the kept user folder).
 */
import { lstatSync, mkdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { addressInUseHint } from '../sandbox/server.mts';
import { alreadyRunning, busyPortsProblem, startSettings } from '../setup/startPreflight.mts';
import { tryLock } from './folderLock.mts';
import { n8nInstallDir, LOCAL_DIR } from './paths.mts';
import { delay, descendantsOf } from './processes.mts';
import { progress } from './progress.mts';
import { startStack } from './stack.mts';
import type { Stack } from './stack.mts';

const USAGE =
	'Usage: npm start [-- --reset]\n  --reset  start from a clean n8n user folder (drops what was built in the demo)';
const CHILD_STOP_GRACE_MS = 10_000;
const PARENT_CHECK_MS = 1_000;
const SIGNAL_EXIT_CODES: Record<string, number> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

function parseArguments(args: string[]): { reset: boolean } {
	let values: { reset?: boolean; help?: boolean };
	try {
		({ values } = parseArgs({
			args,
			options: { reset: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
		}));
	} catch (error) {
		throw new Error(`${(error as Error).message}\n${USAGE}`);
	}
	if (values.help) {
		console.log(USAGE);
		process.exit(0);
	}
	return { reset: values.reset === true };
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

function signal(pids: number[], name: NodeJS.Signals): void {
	for (const pid of pids) {
		try {
			process.kill(pid, name);
		} catch {
			// Already gone.
		}
	}
}

/** Whatever is still running below this process (a start interrupted half-way): SIGTERM, then SIGKILL. */
async function stopDescendants(): Promise<void> {
	let remaining = descendantsOf(process.pid);
	signal(remaining, 'SIGTERM');
	const deadline = Date.now() + CHILD_STOP_GRACE_MS;
	while (remaining.length > 0 && Date.now() < deadline) {
		await delay(200);
		remaining = descendantsOf(process.pid);
	}
	signal(remaining, 'SIGKILL');
}

function summary(stack: Stack, userFolder: string): string {
	const { n8n, sandbox, owner, workflows } = stack;
	const control = sandbox.controlUrl;
	const json = `-H 'content-type: application/json'`;
	return [
		'',
		`n8n editor:   ${n8n.origin}`,
		`Sign in:      ${owner.email} / ${owner.password}`,
		`Sandbox:      ${sandbox.origin}`,
		`  Performance Service  ${sandbox.performanceUrl}  API token ${sandbox.tokens.readWrite}  signing secret ${sandbox.signingSecret}`,
		`  Security Service     ${sandbox.securityUrl}  API key ${sandbox.securityKey}`,
		'',
		'Example workflows (credentials "Performance Service account" and "Security Service account" point at the sandbox):',
		`  ${workflows.scheduledReoptimize.name}: ${n8n.origin}/workflow/${workflows.scheduledReoptimize.id}`,
		'    open it and click "Execute workflow"',
		`  ${workflows.performanceAlerts.name} (published): ${n8n.origin}/workflow/${workflows.performanceAlerts.id}`,
		`    curl -X POST ${control}/emit ${json} -d '{"type":"audit.regression"}'`,
		`  ${workflows.threatTriage.name} (published, polls every minute): ${n8n.origin}/workflow/${workflows.threatTriage.id}`,
		`    curl -X POST ${control}/security/threats ${json} -d '{"severity":"high","title":"Webshell in uploads"}'`,
		`  ${workflows.siteHealthAlerts.name} (published, polls every minute): ${n8n.origin}/workflow/${workflows.siteHealthAlerts.id}`,
		`    curl -X POST ${control}/performance/sites/site_1/status ${json} -d '{"status":"DEGRADED"}'`,
		`  ${workflows.instantThreatAlerts.name} (published; the sandbox calls its webhook when a threat appears): ${n8n.origin}/workflow/${workflows.instantThreatAlerts.id}`,
		`    curl -X POST ${control}/security/ring ${json} -d '{"newRecords":true}'`,
		`Messages posted to the chat sink: curl ${control}/chat/messages`,
		`n8n's log: ${n8n.logFile}`,
		`What you build in n8n is kept in ${userFolder} for the next start; \`npm start -- --reset\` starts clean.`,
		'',
		'Press Ctrl-C to stop n8n and the sandbox.',
	].join('\n');
}

async function main(): Promise<void> {
	const { reset } = parseArguments(process.argv.slice(2));
	const state: { stack?: Stack; stopping: boolean } = { stopping: false };
	const stop = (reason: string, exitCode: number): void => {
		if (state.stopping) return;
		state.stopping = true;
		progress(`${reason}: stopping n8n and the sandbox`);
		void (async () => {
			try {
				await state.stack?.stop();
			} finally {
				await stopDescendants();
				process.exit(exitCode);
			}
		})();
	};
	for (const name of Object.keys(SIGNAL_EXIT_CODES) as NodeJS.Signals[]) {
		process.on(name, () => stop(name, SIGNAL_EXIT_CODES[name]));
	}
	// A parent that goes away without signalling (a killed npm, a closed pipe) leaves this process
	// re-parented: stop then too, so n8n is never left running on its own.
	const parent = process.ppid;
	setInterval(() => {
		if (process.ppid !== parent) stop('parent process exited', 0);
	}, PARENT_CHECK_MS).unref();

	const settings = startSettings();
	const { userFolder } = settings;
	// Held while this start runs: a second `npm start` on the same folder is told who runs it.
	const instance = await tryLock(userFolder, `the n8n user folder ${userFolder}`);
	if ('heldBy' in instance) throw new Error(alreadyRunning(instance.heldBy, settings));
	const busyPorts = await busyPortsProblem(settings);
	if (busyPorts) throw new Error(busyPorts);
	if (reset) {
		progress(`--reset: removing ${userFolder}`);
		rmSync(userFolder, { recursive: true, force: true });
	}
	linkInstallDir();
	const stack = await startStack({
		userFolder,
		keepUserFolder: true,
		// n8n keeps the pollers' memory of record ids; the sandbox must not hand the same ids out again.
		sandboxOptions: { newIdsFromClock: true },
		n8nPort: settings.n8nPort,
		sandboxPort: settings.sandboxPort,
	});
	state.stack = stack;
	if (state.stopping) {
		await stack.stop();
		return;
	}
	const relative = path.relative(process.cwd(), userFolder);
	console.log(summary(stack, relative && !relative.startsWith('..') ? relative : userFolder));
}

main().catch(async (error: unknown) => {
	const hint = addressInUseHint(error, 'SANDBOX_PORT');
	console.error(hint ?? (error instanceof Error ? error.message : error));
	await stopDescendants();
	process.exit(1);
});
