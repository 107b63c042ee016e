import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

import { numericDirs, statFields } from '../test/support/n8n/procfs.mts';

/** CPU time and memory of process groups (n8n and its task runner share one), from Linux /proc. */

const PAGE_BYTES = 4096;
/** Clock ticks per second of the utime/stime fields (USER_HZ). */
const TICKS_PER_SECOND =
	Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

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
