/**
 * What `npm start` checks before it builds anything (its `prestart` script runs this file, and
 * start.ts again): another `npm start` running on the same user folder, and the ports it needs.
 * Each problem is one line with its cause and the fix, instead of `listen EADDRINUSE` or a tail of
 * n8n's log.
 */
import path from 'node:path';

import { describeOwner, lockHolder } from '../n8n/folderLock.mts';
import type { LockOwner } from '../n8n/folderLock.mts';
import { LOCAL_DIR } from '../n8n/paths.mts';
import { portInUse } from '../n8n/processes.mts';

export interface StartSettings {
	userFolder: string;
	n8nPort: number;
	sandboxPort: number;
}

function portFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
	const port = Number(env[name] ?? fallback);
	if (!Number.isInteger(port) || port <= 0 || port > 65535)
		throw new Error(`${name} must be a TCP port, got ${env[name]}`);
	return port;
}

/** N8N_PORT (5678), SANDBOX_PORT (5680) and DEMO_USER_FOLDER (.n8n-local/user). */
export function startSettings(env: NodeJS.ProcessEnv = process.env): StartSettings {
	return {
		userFolder: path.resolve(env.DEMO_USER_FOLDER ?? path.join(LOCAL_DIR, 'user')),
		n8nPort: portFromEnv(env, 'N8N_PORT', 5678),
		sandboxPort: portFromEnv(env, 'SANDBOX_PORT', 5680),
	};
}

function shown(folder: string): string {
	const relative = path.relative(process.cwd(), folder);
	return relative && !relative.startsWith('..') ? relative : folder;
}

export function alreadyRunning(owner: LockOwner | undefined, settings: StartSettings): string {
	const stop = owner ? ` (Ctrl-C in its terminal, or kill ${owner.pid})` : '';
	return (
		`npm start is already running for ${shown(settings.userFolder)}: ${describeOwner(owner)}. ` +
		`Use that one, stop it${stop}, or start a second one with its own folder and ports: ` +
		`DEMO_USER_FOLDER=${shown(settings.userFolder)}2 N8N_PORT=${settings.n8nPort + 10} SANDBOX_PORT=${settings.sandboxPort + 10} npm start`
	);
}

/** One line naming the busy ports and the settings that choose others, or undefined when both are free. */
export async function busyPortsProblem(settings: StartSettings): Promise<string | undefined> {
	const ports = [
		{ name: 'N8N_PORT', port: settings.n8nPort },
		{ name: 'SANDBOX_PORT', port: settings.sandboxPort },
	];
	const busy: typeof ports = [];
	for (const entry of ports) if (await portInUse(entry.port)) busy.push(entry);
	if (busy.length === 0) return undefined;
	const list = busy.map(({ name, port }) => `${port} (${name})`).join(' and ');
	const fix = busy.map(({ name, port }) => `${name}=${port + 10}`).join(' ');
	const many = busy.length > 1;
	return `${many ? 'Ports' : 'Port'} ${list} ${many ? 'are' : 'is'} already in use by another program: stop it, or choose ${many ? 'other ports' : 'another port'}, e.g. ${fix} npm start`;
}

/** The first reason `npm start` cannot start with these settings, or undefined. */
export async function startProblem(settings: StartSettings): Promise<string | undefined> {
	// `npm start` holds the lock of its user folder (`.n8n-local/user.lock`) while it runs.
	const running = await lockHolder(settings.userFolder);
	if (running) return alreadyRunning(running.heldBy, settings);
	return await busyPortsProblem(settings);
}

if (import.meta.main) {
	const problem = await startProblem(startSettings());
	if (problem) {
		console.error(problem);
		process.exit(1);
	}
}
