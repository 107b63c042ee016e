/**
 * A lock per cache folder (`<folder>.lock`), so two processes never run `npm install` into the same
 * n8n or Node folder at once (say `npm start` while `.ci/run` installs the same version). The lock
 * file holds its owner as JSON and is created atomically (a complete temp file hard-linked into
 * place); a waiter reports whose lock it is and how long it has waited. A lock whose process is gone
 * (same host), or whose owner stopped touching it for `staleAfterMs`, is taken over.
 */
import { spawnSync } from 'node:child_process';
import {
	linkSync,
	mkdirSync,
	openSync,
	closeSync,
	readFileSync,
	statSync,
	unlinkSync,
	utimesSync,
	writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';

import { progress } from './progress.mts';

/** Who holds a lock; the lock file's content. */
export interface LockOwner {
	pid: number;
	hostname: string;
	command: string;
	startedAt: string;
}

export interface LockTiming {
	/** How often a waiter looks at the lock again. */
	pollMs: number;
	/** How often a waiter says it is still waiting. */
	reportEveryMs: number;
	/** How often the owner touches the lock file to show it is alive. */
	heartbeatMs: number;
	/** A lock not touched for this long is taken over even when its process looks alive (another host, a reused pid). */
	staleAfterMs: number;
}

export const LOCK_TIMING: LockTiming = {
	pollMs: 1_000,
	reportEveryMs: 30_000,
	heartbeatMs: 30_000,
	staleAfterMs: 10 * 60_000,
};

/** A lock this process holds; `release` is idempotent and also runs when the process exits. */
export interface HeldLock {
	file: string;
	owner: LockOwner;
	release(): void;
}

/** What is in a lock file right now: its text (compared before taking it over), its owner when readable, its age. */
interface LockState {
	text: string;
	owner?: LockOwner;
	ageMs: number;
}

export function lockFileFor(folder: string): string {
	return `${path.resolve(folder)}.lock`;
}

function currentOwner(): LockOwner {
	return {
		pid: process.pid,
		hostname: hostname(),
		command: [path.basename(process.argv0), ...process.argv.slice(1)].join(' '),
		startedAt: new Date().toISOString(),
	};
}

function parseOwner(text: string): LockOwner | undefined {
	try {
		const value = JSON.parse(text) as Partial<LockOwner>;
		return typeof value.pid === 'number' && typeof value.startedAt === 'string'
			? (value as LockOwner)
			: undefined;
	} catch {
		return undefined;
	}
}

export function readLock(file: string): LockState | undefined {
	try {
		const text = readFileSync(file, 'utf8');
		return { text, owner: parseOwner(text), ageMs: Date.now() - statSync(file).mtimeMs };
	} catch {
		return undefined;
	}
}

/** Whether a process runs with this id on this host (a zombie counts as gone). */
export function processAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
	const state = spawnSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' });
	return !(state.stdout ?? '').trim().startsWith('Z');
}

/** Why a lock may be taken over, or undefined while its owner may still be working. */
export function staleReason(
	lock: LockState,
	timing: Pick<LockTiming, 'staleAfterMs' | 'heartbeatMs'>,
	isAlive: (pid: number) => boolean = processAlive,
	thisHost = hostname(),
): string | undefined {
	const { owner, ageMs } = lock;
	if (!owner) return ageMs > timing.heartbeatMs ? 'its lock file is unreadable' : undefined;
	if (owner.hostname === thisHost && !isAlive(owner.pid))
		return `its process (pid ${owner.pid}) is gone`;
	if (ageMs > timing.staleAfterMs)
		return `it has not touched the lock for ${Math.round(ageMs / 60_000)} min`;
	return undefined;
}

/** "pid 123 (node install.ts) on host, since 10:25:01" */
export function describeOwner(owner: LockOwner | undefined, thisHost = hostname()): string {
	if (!owner) return 'an unknown process';
	const since = new Date(owner.startedAt).toISOString().slice(11, 19);
	const host = owner.hostname === thisHost ? '' : ` on ${owner.hostname}`;
	return `pid ${owner.pid} (${owner.command})${host}, since ${since} UTC`;
}

/** Creates the lock file with its full content in one step: link(2) fails when the file exists. */
function createLockFile(file: string, text: string): boolean {
	const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
	writeFileSync(temp, text);
	try {
		linkSync(temp, file);
		return true;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
		throw error;
	} finally {
		unlinkSync(temp);
	}
}

/**
 * Removes a stale lock unless it changed since it was judged stale. One process at a time does this
 * (a `.takeover` file), so a waiter never removes a lock another waiter has just taken over.
 */
function removeStale(file: string, judged: LockState, timing: LockTiming): void {
	const guard = `${file}.takeover`;
	let fd: number;
	try {
		fd = openSync(guard, 'wx');
	} catch {
		// Another process is taking over; a guard left by a crash is cleared after a while.
		const guardAge = Date.now() - (statSync(guard, { throwIfNoEntry: false })?.mtimeMs ?? 0);
		if (guardAge > timing.heartbeatMs) unlinkSync(guard);
		return;
	}
	try {
		if (readLock(file)?.text === judged.text) unlinkSync(file);
	} finally {
		closeSync(fd);
		unlinkSync(guard);
	}
}

function hold(file: string, owner: LockOwner, text: string, timing: LockTiming): HeldLock {
	const heartbeat = setInterval(() => {
		try {
			if (readFileSync(file, 'utf8') !== text) return clearInterval(heartbeat);
			const now = new Date();
			utimesSync(file, now, now);
		} catch {
			clearInterval(heartbeat);
		}
	}, timing.heartbeatMs);
	heartbeat.unref();
	const release = (): void => {
		clearInterval(heartbeat);
		process.off('exit', release);
		try {
			if (readFileSync(file, 'utf8') === text) unlinkSync(file);
		} catch {
			// Already gone.
		}
	};
	process.on('exit', release);
	return { file, owner, release };
}

/** Takes the lock if it is free or stale; otherwise returns what is in it. */
export function tryLock(
	file: string,
	timing: LockTiming = LOCK_TIMING,
	onTakeOver: (reason: string, previous: LockOwner | undefined) => void = () => undefined,
): HeldLock | { heldBy: LockState } {
	mkdirSync(path.dirname(file), { recursive: true });
	const owner = currentOwner();
	const text = `${JSON.stringify(owner)}\n`;
	for (let attempt = 0; attempt < 2; attempt++) {
		if (createLockFile(file, text)) return hold(file, owner, text, timing);
		const current = readLock(file);
		if (!current) continue;
		const reason = staleReason(current, timing);
		if (!reason) return { heldBy: current };
		onTakeOver(reason, current.owner);
		removeStale(file, current, timing);
	}
	return { heldBy: readLock(file) ?? { text: '', ageMs: 0 } };
}

function seconds(ms: number): string {
	return `${Math.round(ms / 1000)} s`;
}

/** Waits for the lock, reporting whose it is on the first wait and every `reportEveryMs` after. */
export async function acquireLock(
	file: string,
	what: string,
	timing: LockTiming = LOCK_TIMING,
	report: (line: string) => void = progress,
): Promise<HeldLock> {
	const started = Date.now();
	let lastReport = 0;
	for (;;) {
		const result = tryLock(file, timing, (reason, previous) =>
			report(`Taking over the lock on ${what} from ${describeOwner(previous)}: ${reason}`),
		);
		if (!('heldBy' in result)) {
			if (lastReport > 0) report(`Got the lock on ${what} after ${seconds(Date.now() - started)}`);
			return result;
		}
		const now = Date.now();
		if (lastReport === 0) {
			report(
				`${what} is being installed by ${describeOwner(result.heldBy.owner)} (lock ${file}): waiting for it to finish`,
			);
			lastReport = now;
		} else if (now - lastReport >= timing.reportEveryMs) {
			report(
				`  ... still waiting for ${describeOwner(result.heldBy.owner)} (${seconds(now - started)})`,
			);
			lastReport = now;
		}
		await new Promise((resolve) => setTimeout(resolve, timing.pollMs));
	}
}

/** Runs `step` holding the lock of `folder`; `step` must check again whether its work is done (the previous owner may have done it). */
export async function withFolderLock<T>(
	folder: string,
	what: string,
	step: () => Promise<T>,
	timing: LockTiming = LOCK_TIMING,
): Promise<T> {
	const lock = await acquireLock(lockFileFor(folder), what, timing);
	try {
		return await step();
	} finally {
		lock.release();
	}
}
