import { randomEventId } from './ids.mts';
import { siteView } from './performanceModel.mts';
import { PERFORMANCE_EVENT_TYPES } from './serviceValues.mts';
import type { Alert, Audit, PerformanceData, PerformanceSite } from './performanceModel.mts';
import type { EventType, WebhookEvent } from './types.mts';

export interface Artifact {
	id: string;
	siteId: string;
	kind: 'critical_css' | 'unused_css';
	url: string;
	publishedAt: string;
}

export interface Regression {
	siteId: string;
	auditId: string;
	strategy: string;
	metric: 'score';
	previous: number | null;
	current: number;
	target: number;
}

export function isEventType(value: unknown): value is EventType {
	return (
		typeof value === 'string' && (PERFORMANCE_EVENT_TYPES as readonly string[]).includes(value)
	);
}

export function createEvent(type: EventType, data: Record<string, unknown>): WebhookEvent {
	return { id: randomEventId(), type, createdAt: new Date().toISOString(), data };
}

export const payloads = {
	siteAdded: (site: PerformanceSite) => ({ site: siteView(site) }),
	auditCompleted: (audit: Audit) => ({ siteId: audit.siteId, audit }),
	auditRegression: (regression: Regression) => ({ ...regression }),
	alert: (alert: Alert) => ({ alert: { ...alert } }),
	artifactPublished: (artifact: Artifact) => ({ artifact }),
};

/** Realistic data for `emit()` without data: built from the first site, never stored. */
export function sampleEventData(type: EventType, perf: PerformanceData): Record<string, unknown> {
	const site = perf.sites[0];
	const now = new Date().toISOString();
	const siteId = site?.id ?? 'site_1';
	const audit: Audit = site?.audits[0] ?? {
		id: 'aud_sample',
		siteId,
		strategy: 'mobile',
		score: 72,
		metrics: { lcp: 2460, cls: 0.112, tbt: 336, fcp: 1360 },
		createdAt: now,
	};
	const alert: Alert = {
		id: 'alr_sample',
		siteId,
		status: type === 'alert.resolved' ? 'resolved' : 'open',
		reason: 'Performance score below target 90',
		openedAt: now,
		resolvedAt: type === 'alert.resolved' ? now : null,
	};
	switch (type) {
		case 'site.added':
			return site
				? payloads.siteAdded(site)
				: {
						site: {
							id: siteId,
							name: 'Sample',
							hostname: 'sample.example.com',
							status: 'PENDING',
							audits: [],
						},
					};
		case 'audit.completed':
			return payloads.auditCompleted(audit);
		case 'audit.regression':
			return payloads.auditRegression({
				siteId,
				auditId: audit.id,
				strategy: audit.strategy,
				metric: 'score',
				previous: audit.score,
				current: audit.score - 20,
				target: audit.score - 5,
			});
		case 'alert.opened':
		case 'alert.resolved':
			return payloads.alert(alert);
		case 'artifact.published':
			return payloads.artifactPublished({
				id: 'art_sample',
				siteId,
				kind: 'critical_css',
				url: `https://cdn.example.com/artifacts/${siteId}/art_sample.css`,
				publishedAt: now,
			});
	}
}
