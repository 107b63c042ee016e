/**
 * A lock per cache folder, so two processes never run `npm install` into the same n8n or Node folder
 * at once (say `npm start` while `.ci/run` installs the same version); `npm start` also holds one on
 * its user folder while it runs. proper-lockfile holds it: `<folder>.lock` is a directory made
 * atomically, whose time its holder refreshes while it lives; one left unrefreshed for `staleMs` (its
 * process was killed) is taken over. `<folder>.lock-owner.json` names the holder for the messages a
 * waiter prints.
 */
import { hostname } from 'node:os';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { check, lock } from 'proper-lockfile';

import { progress } from './progress.mts';

/** Who holds a lock; the owner file's content. */
export interface LockOwner {
	pid: number;
	hostname: string;
	command: string;
	startedAt: string;
}

export interface LockTiming {
	/** How often a waiter tries again. */
	pollMs: number;
	/** How often a waiter says it is still waiting. */
	reportEveryMs: number;
	/** A lock its holder has not refreshed for this long is taken over (proper-lockfile's `stale`). */
	staleMs: number;
}

export const LOCK_TIMING: LockTiming = { pollMs: 1_000, reportEveryMs: 30_000, staleMs: 20_000 };

/** A lock this process holds; proper-lockfile also removes it when the process exits. */
export interface HeldLock {
	file: string;
	owner: LockOwner;
	release(): Promise<void>;
}

/** The lock is held by another process; its owner when the owner file names it. */
export interface LockBusy {
	heldBy: LockOwner | undefined;
}

export function lockFileFor(folder: string): string {
	return `${path.resolve(folder)}.lock`;
}

function ownerFileFor(folder: string): string {
	return `${lockFileFor(folder)}-owner.json`;
}

function readOwner(folder: string): LockOwner | undefined {
	try {
		const value = JSON.parse(readFileSync(ownerFileFor(folder), 'utf8')) as Partial<LockOwner>;
		return typeof value.pid === 'number' && typeof value.startedAt === 'string'
			? (value as LockOwner)
			: undefined;
	} catch {
		return undefined;
	}
}

/** "pid 123 (node install.ts) on host, since 10:25:01 UTC" */
export function describeOwner(owner: LockOwner | undefined, thisHost = hostname()): string {
	if (!owner) return 'an unknown process';
	const since = new Date(owner.startedAt).toISOString().slice(11, 19);
	const host = owner.hostname === thisHost ? '' : ` on ${owner.hostname}`;
	return `pid ${owner.pid} (${owner.command})${host}, since ${since} UTC`;
}

/** The lock's holder while another process holds it (not stale), or undefined when it is free. */
export async function lockHolder(
	folder: string,
	timing: LockTiming = LOCK_TIMING,
): Promise<LockBusy | undefined> {
	const held = await check(folder, {
		lockfilePath: lockFileFor(folder),
		realpath: false,
		stale: timing.staleMs,
	});
	return held ? { heldBy: readOwner(folder) } : undefined;
}

function isBusy(error: unknown): boolean {
	return (error as NodeJS.ErrnoException).code === 'ELOCKED';
}

function seconds(ms: number): string {
	return `${Math.round(ms / 1000)} s`;
}

/**
 * Takes the lock if it is free or stale; otherwise says who holds it. proper-lockfile lets two
 * processes that find the same stale lock both take it over (moxystudio/node-proper-lockfile#121):
 * a second, short-lived lock (`<folder>.lock.gate`) lets one process at a time try.
 */
export async function tryLock(
	folder: string,
	what: string,
	timing: LockTiming = LOCK_TIMING,
	report: (line: string) => void = progress,
): Promise<HeldLock | LockBusy> {
	const file = lockFileFor(folder);
	mkdirSync(path.dirname(file), { recursive: true });
	let releaseGate: () => Promise<void>;
	try {
		// proper-lockfile tracks each lock by its first argument: the gate's must differ from the folder's.
		releaseGate = await lock(file, { lockfilePath: `${file}.gate`, realpath: false });
	} catch (error) {
		if (isBusy(error)) return { heldBy: readOwner(folder) };
		throw error;
	}
	try {
		const age = Date.now() - (statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
		if (age > timing.staleMs)
			report(
				`Taking over the lock on ${what} from ${describeOwner(readOwner(folder))}: not refreshed for ${seconds(age)}`,
			);
		const releaseLock = await lock(path.resolve(folder), {
			lockfilePath: file,
			realpath: false,
			stale: timing.staleMs,
			update: timing.staleMs / 4,
			onCompromised: (error) => report(`The lock on ${what} was lost: ${error.message}`),
		});
		const owner: LockOwner = {
			pid: process.pid,
			hostname: hostname(),
			command: [path.basename(process.argv0), ...process.argv.slice(1)].join(' '),
			startedAt: new Date().toISOString(),
		};
		const ownerFile = ownerFileFor(folder);
		writeFileSync(`${ownerFile}.${process.pid}`, JSON.stringify(owner));
		renameSync(`${ownerFile}.${process.pid}`, ownerFile);
		let released = false;
		const release = async (): Promise<void> => {
			if (released) return;
			released = true;
			rmSync(ownerFile, { force: true });
			// Rejects only when the lock was already lost, which onCompromised reported.
			await releaseLock().catch(() => undefined);
		};
		return { file, owner, release };
	} catch (error) {
		if (isBusy(error)) return { heldBy: readOwner(folder) };
		throw error;
	} finally {
		await releaseGate();
	}
}

/** Waits for the lock, reporting whose it is on the first wait and every `reportEveryMs` after. */
export async function acquireLock(
	folder: string,
	what: string,
	timing: LockTiming = LOCK_TIMING,
	report: (line: string) => void = progress,
): Promise<HeldLock> {
	const started = Date.now();
	let lastReport = 0;
	for (;;) {
		const result = await tryLock(folder, what, timing, report);
		if (!('heldBy' in result)) {
			if (lastReport > 0) report(`Got the lock on ${what} after ${seconds(Date.now() - started)}`);
			return result;
		}
		const now = Date.now();
		// The holder writes its name just after taking the lock: give it a moment before "unknown".
		if (lastReport === 0 && (result.heldBy || now - started >= timing.reportEveryMs)) {
			report(
				`${what} is being installed by ${describeOwner(result.heldBy)} (lock ${lockFileFor(folder)}): waiting for it to finish`,
			);
			lastReport = now;
		} else if (lastReport > 0 && now - lastReport >= timing.reportEveryMs) {
			report(`  ... still waiting for ${describeOwner(result.heldBy)} (${seconds(now - started)})`);
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
	const held = await acquireLock(folder, what, timing);
	try {
		return await step();
	} finally {
		await held.release();
	}
}
