import { randomEventId } from './ids.mts';
import type { SecurityRecord, SecurityResource } from './securityModel.mts';
import type { WebhookService } from './webhooks.mts';

/**
 * The security service's webhook events and the list each one is about. The service publishes
 * neither names, payloads nor signing: these are the sandbox's choices (README.md).
 */
export const SECURITY_EVENT_RESOURCES = {
	'threat.detected': 'threats',
	'scan.created': 'scans',
	'scan.completed': 'scans',
	'update.available': 'updates',
	'report.ready': 'reports',
} as const satisfies Record<string, SecurityResource>;

export type SecurityEventType = keyof typeof SECURITY_EVENT_RESOURCES;

export const SECURITY_EVENT_TYPES = Object.keys(SECURITY_EVENT_RESOURCES) as SecurityEventType[];

export interface SecurityEvent {
	id: string;
	event: SecurityEventType;
	createdAt: string;
	/** `{threatId, siteId}`, `{scanId, siteId}`, …; empty when the list holds no record. */
	data: Record<string, unknown>;
}

/** What `POST /_control/security/ring` takes. */
export interface SecurityRing {
	count?: number;
	event?: SecurityEventType;
	newRecords?: boolean;
}

/** Unsigned: the attempt's record keeps nothing beyond the attempt itself. */
export const SECURITY_WEBHOOKS: WebhookService<object> = {
	idPrefix: 'swe',
	userAgent: 'security-service-webhooks/1.0 (sandbox)',
	eventTypes: SECURITY_EVENT_TYPES,
	authenticate: () => ({ headers: {}, recorded: {} }),
};

export function isSecurityEventType(value: unknown): value is SecurityEventType {
	return (SECURITY_EVENT_TYPES as readonly unknown[]).includes(value);
}

const FINISHED_SCAN_STATUSES: readonly unknown[] = ['completed', 'failed'];

/** The event a record announces when it appears in its list; sites announce nothing. */
export function eventOfNewRecord(
	resource: SecurityResource,
	record: SecurityRecord,
): SecurityEventType | undefined {
	switch (resource) {
		case 'sites':
			return undefined;
		case 'scans':
			return FINISHED_SCAN_STATUSES.includes(record.status) ? 'scan.completed' : 'scan.created';
		case 'threats':
			return 'threat.detected';
		case 'updates':
			return 'update.available';
		case 'reports':
			return 'report.ready';
	}
}

/** Fields of a new record that `type` announces: a finished scan for scan.completed. */
export function fieldsOfRecordFor(type: SecurityEventType): Record<string, unknown> {
	if (type !== 'scan.completed') return {};
	const now = new Date().toISOString();
	return { status: 'completed', startedAt: now, finishedAt: now };
}

/** `threat.detected` about thr_28 → `data: {threatId: "thr_28", siteId}`. */
export function createSecurityEvent(
	type: SecurityEventType,
	record: SecurityRecord | undefined,
): SecurityEvent {
	const idField = `${type.split('.')[0]}Id`;
	return {
		id: randomEventId(),
		event: type,
		createdAt: new Date().toISOString(),
		data: record ? { [idField]: record.id, siteId: record.siteId } : {},
	};
}
