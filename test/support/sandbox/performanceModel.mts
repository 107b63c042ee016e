import type { IdSource } from './ids.mts';

export type SiteStatus = 'HEALTHY' | 'DEGRADED' | 'CRITICAL' | 'PENDING';
export type Strategy = 'mobile' | 'desktop';
export const STRATEGIES: readonly Strategy[] = ['mobile', 'desktop'];

export interface Audit {
	id: string;
	siteId: string;
	strategy: Strategy;
	score: number;
	metrics: { lcp: number; cls: number; tbt: number; fcp: number };
	createdAt: string;
}

export interface SiteEvent {
	id: string;
	type: string;
	message: string;
	createdAt: string;
}

export interface PerformanceSite {
	id: string;
	name: string;
	hostname: string;
	status: SiteStatus;
	/** Newest first. */
	audits: Audit[];
	/** Newest first. */
	events: SiteEvent[];
	/** Hidden: a new audit scoring below this opens a regression. */
	targetScore: number;
	/** Hidden: the scores the next reoptimization's audits will get. */
	nextScores: Record<Strategy, number>;
}

export interface Alert {
	id: string;
	siteId: string;
	status: 'open' | 'resolved';
	reason: string;
	openedAt: string;
	resolvedAt: string | null;
}

export interface PerformanceData {
	sites: PerformanceSite[];
	alerts: Alert[];
	queue: { pending: number; running: number };
}

export function makeAudit(
	ids: IdSource,
	siteId: string,
	strategy: Strategy,
	score: number,
	createdAt: string,
): Audit {
	const gap = 100 - score;
	return {
		id: ids.next('aud'),
		siteId,
		strategy,
		score,
		metrics: {
			lcp: 1200 + gap * 45,
			cls: Math.round(gap * 4) / 1000,
			tbt: gap * 12,
			fcp: 800 + gap * 20,
		},
		createdAt,
	};
}

/** Worst of the latest mobile and desktop scores: 90+ HEALTHY, 50-89 DEGRADED, below 50 CRITICAL; no audits PENDING. */
export function statusFromAudits(audits: Audit[]): SiteStatus {
	const latest = STRATEGIES.map((strategy) =>
		audits.find((audit) => audit.strategy === strategy),
	).filter((audit): audit is Audit => audit !== undefined);
	if (latest.length === 0) return 'PENDING';
	const worst = Math.min(...latest.map((audit) => audit.score));
	return worst >= 90 ? 'HEALTHY' : worst >= 50 ? 'DEGRADED' : 'CRITICAL';
}

export function siteView(site: PerformanceSite): Record<string, unknown> {
	const { id, name, hostname, status, audits } = site;
	return { id, name, hostname, status, audits };
}

export function siteDetailView(site: PerformanceSite): Record<string, unknown> {
	return { ...siteView(site), events: site.events };
}
