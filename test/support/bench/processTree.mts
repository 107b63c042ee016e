import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * Linux /proc readers for the load benchmarks: which process listens on a port, and the CPU time
 * and memory of process groups (n8n and its task runner share one).
 */

const PAGE_BYTES = 4096;
/** Clock ticks per second of the utime/stime fields (USER_HZ). */
const TICKS_PER_SECOND =
	Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

function numericDirs(): number[] {
	return readdirSync('/proc')
		.filter((name) => /^[0-9]+$/.test(name))
		.map(Number);
}

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
function statFields(pid: number): string[] | undefined {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	} catch {
		return undefined; // the process is gone
	}
}

function listeningInode(port: number): string | undefined {
	const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
	for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
		const lines = readFileSync(table, 'utf8').trim().split('\n').slice(1);
		for (const line of lines) {
			const fields = line.trim().split(/\s+/);
			// local_address is ADDR:PORT in hex; state 0A is LISTEN; field 9 is the socket inode.
			if (fields[1]?.endsWith(`:${hexPort}`) && fields[3] === '0A') return fields[9];
		}
	}
	return undefined;
}

/** The process that listens on a TCP port, found through its socket's inode. */
export function listeningPid(port: number): number | undefined {
	const inode = listeningInode(port);
	if (!inode) return undefined;
	const socket = `socket:[${inode}]`;
	for (const pid of numericDirs()) {
		let fds: string[];
		try {
			fds = readdirSync(`/proc/${pid}/fd`);
		} catch {
			continue;
		}
		for (const fd of fds) {
			try {
				if (readlinkSync(`/proc/${pid}/fd/${fd}`) === socket) return pid;
			} catch {
				// closed meanwhile
			}
		}
	}
	return undefined;
}

export function processGroupOf(pid: number): number {
	const fields = statFields(pid);
	if (!fields) throw new Error(`Process ${pid} is gone`);
	return Number(fields[2]);
}

/** Resident memory of every process in a process group, in bytes. */
export function groupRssBytes(pgid: number): number {
	let pages = 0;
	for (const pid of numericDirs()) {
		const fields = statFields(pid);
		// After the name: state, ppid, pgrp, ... rss is field 24 of the whole line, 22 here.
		if (fields && Number(fields[2]) === pgid) pages += Number(fields[21]);
	}
	return pages * PAGE_BYTES;
}

/**
 * CPU seconds (user + system) of every process in the given process groups, including the
 * children they have already waited for (cutime, cstime): a task runner that exits and is reaped
 * by n8n keeps counting. Take it at the start and at the end, and subtract.
 */
export function groupsCpuSeconds(pgids: number[]): number {
	const wanted = new Set(pgids);
	let ticks = 0;
	for (const pid of numericDirs()) {
		const fields = statFields(pid);
		// After the name: utime, stime, cutime, cstime are fields 14-17 of the whole line, 11-14 here.
		if (fields && wanted.has(Number(fields[2])))
			ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
	}
	return ticks / TICKS_PER_SECOND;
}

/** Resident memory of every process in the given process groups, in bytes. */
export function groupsRssBytes(pgids: number[]): number {
	return pgids.reduce((sum, pgid) => sum + groupRssBytes(pgid), 0);
}

/** The 1, 5 and 15 minute load averages of the machine (/proc/loadavg). */
export function loadAverage(): [number, number, number] {
	const [one, five, fifteen] = readFileSync('/proc/loadavg', 'utf8').split(' ').map(Number);
	return [one, five, fifteen];
}

export interface TreeFigures {
	cpuSeconds: number;
	baselineRssBytes: number;
	peakRssBytes: number;
}

/**
 * CPU time and peak resident memory of some process groups between start() and stop(): the
 * processes of one n8n (main + task runner) or of a queue-mode cluster.
 */
export class TreeMeter {
	private readonly pgids: number[];
	private cpuAtStart = 0;
	private baseline = 0;
	private peak = 0;
	private timer: NodeJS.Timeout | undefined;

	constructor(pgids: number[]) {
		this.pgids = pgids;
	}

	start(intervalMs = 100): void {
		this.baseline = groupsRssBytes(this.pgids);
		this.peak = this.baseline;
		this.cpuAtStart = groupsCpuSeconds(this.pgids);
		this.timer = setInterval(() => this.sample(), intervalMs);
	}

	private sample(): void {
		const bytes = groupsRssBytes(this.pgids);
		if (bytes > this.peak) this.peak = bytes;
	}

	stop(): TreeFigures {
		const cpuSeconds = groupsCpuSeconds(this.pgids) - this.cpuAtStart;
		clearInterval(this.timer);
		this.sample();
		return { cpuSeconds, baselineRssBytes: this.baseline, peakRssBytes: this.peak };
	}
}
