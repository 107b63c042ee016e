import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { ARTIFACTS_DIR, PACKAGE_ROOT } from '../test/support/n8n/paths.mts';
import type { BatchFigures } from './benchBatch.mts';

/** Figures to text: medians, ranges and ratios of the benchmarks' batches, and markdown tables. */

export const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
export const ms = (value: number): string => `${value.toFixed(0)} ms`;
export const seconds = (value: number): string => `${value.toFixed(1)} s`;
export const times = (value: number): string => `${value.toFixed(2)}×`;

export function median(values: number[]): number {
	if (values.length === 0) return Number.NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export interface Spread {
	median: number;
	min: number;
	max: number;
}

export function spread(values: number[]): Spread {
	return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

/** "median (min–max)" with a formatter; just the value when there is one. */
export function showSpread(value: Spread, format: (n: number) => string): string {
	if (value.min === value.max) return format(value.median);
	return `${format(value.median)} (${format(value.min)}–${format(value.max)})`;
}

/** Ratios of two series measured side by side (round i of one against round i of the other). */
function ratios(ours: number[], theirs: number[]): Spread {
	return spread(ours.map((value, index) => value / theirs[index]));
}

/** Total of one series over total of the other: every round's cost counts, also a rare slow one (a garbage collection). */
function totalRatio(ours: number[], theirs: number[]): number {
	const sum = (values: number[]): number => values.reduce((total, value) => total + value, 0);
	return sum(ours) / sum(theirs);
}

/** One start's rounds against another's, measured alternately. */
export interface Comparison {
	cpu: Spread;
	cpuTotal: number;
	peakRss: Spread;
}

export function compareRounds(ours: BatchFigures[], theirs: BatchFigures[]): Comparison {
	const cpu = (batches: BatchFigures[]): number[] => batches.map((batch) => batch.cpuSeconds);
	const rss = (batches: BatchFigures[]): number[] => batches.map((batch) => batch.peakRssBytes);
	return {
		cpu: ratios(cpu(ours), cpu(theirs)),
		cpuTotal: totalRatio(cpu(ours), cpu(theirs)),
		peakRss: ratios(rss(ours), rss(theirs)),
	};
}

export function row(cells: string[]): string {
	return `| ${cells.join(' | ')} |`;
}

export function table(header: string[], rows: string[][]): string {
	return [row(header), row(header.map(() => '---')), ...rows.map(row)].join('\n');
}

export function comparisonTable(rows: Array<[string, Comparison]>): string {
	return table(
		['ratio', 'CPU, per round', 'CPU, all rounds', 'peak RSS, per round'],
		rows.map(([label, comparison]) => [
			label,
			showSpread(comparison.cpu, times),
			times(comparison.cpuTotal),
			showSpread(comparison.peakRss, times),
		]),
	);
}

/** Writes a benchmark's figures as JSON to `output` (in test-artifacts/ unless absolute); returns the file. */
export function writeFigures(output: string, figures: unknown): string {
	const file = path.resolve(ARTIFACTS_DIR, output);
	mkdirSync(path.dirname(file), { recursive: true });
	writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`);
	return file;
}

export const executionsCell = (batches: BatchFigures[]): string => {
	const executions = batches.reduce((sum, batch) => sum + batch.counts.executions, 0);
	const missing = batches.reduce((sum, batch) => sum + batch.counts.missing, 0);
	const doubled = batches.reduce((sum, batch) => sum + batch.counts.doubled, 0);
	const sent = batches.reduce((sum, batch) => sum + batch.deliveries, 0);
	return `${executions} of ${sent} (${missing} / ${doubled})`;
};

export const loadCell = (batch: BatchFigures): string =>
	`${batch.loadBefore[0].toFixed(1)} → ${batch.loadAfter[0].toFixed(1)}`;

/** Which code was measured: a git commit (and whether its nodes/ had uncommitted changes) where known. */
export function packageSource(source: string | undefined): Record<string, unknown> {
	const dir = source ? path.resolve(source) : PACKAGE_ROOT;
	const git = (args: string[]): string | undefined => {
		const result = spawnSync('git', args, { cwd: dir, encoding: 'utf8' });
		return result.status === 0 ? result.stdout.trim() : undefined;
	};
	if (dir.endsWith('.tgz')) return { tarball: dir };
	const commit = git(['rev-parse', 'HEAD']);
	const changed = git(['status', '--porcelain', '--', 'nodes', 'credentials']);
	return {
		dir,
		commit,
		uncommittedChangesInNodes: changed === undefined ? undefined : changed !== '',
	};
}
