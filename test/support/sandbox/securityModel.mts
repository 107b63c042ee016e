import type { IdSource } from './ids.mts';

export const SECURITY_RESOURCES = ['sites', 'scans', 'threats', 'updates', 'reports'] as const;
export type SecurityResource = (typeof SECURITY_RESOURCES)[number];

export type SecurityRecord = Record<string, unknown> & { id: string };

export type SecurityData = Record<SecurityResource, SecurityRecord[]>;

/** Fields a list can be filtered on through the query string, per resource. */
export const FILTERABLE: Record<SecurityResource, readonly string[]> = {
	sites: [],
	scans: ['status', 'siteId'],
	threats: ['status', 'severity', 'siteId'],
	updates: ['siteId'],
	reports: ['siteId'],
};

const ID_PREFIX: Record<SecurityResource, string> = {
	sites: 'st',
	scans: 'scn',
	threats: 'thr',
	updates: 'upd',
	reports: 'rep',
};

function defaults(resource: SecurityResource, id: string, now: string): Record<string, unknown> {
	switch (resource) {
		case 'sites':
			return { url: `https://site-${id}.example.org`, name: `Site ${id}`, createdAt: now };
		case 'scans':
			return { siteId: 'st_1', status: 'queued', startedAt: null, finishedAt: null };
		case 'threats':
			return {
				siteId: 'st_1',
				severity: 'medium',
				type: 'malware',
				title: 'Injected script in theme footer',
				status: 'open',
				detectedAt: now,
			};
		case 'updates':
			return {
				siteId: 'st_1',
				component: 'contact-form',
				currentVersion: '5.8.1',
				availableVersion: '5.9.0',
				type: 'plugin',
			};
		case 'reports':
			return {
				siteId: 'st_1',
				period: now.slice(0, 7),
				createdAt: now,
				url: `https://reports.example.org/${id}.pdf`,
			};
	}
}

/** Builds a record of `resource` from defaults overlaid with `partial`; an `id` in `partial` wins. */
export function newSecurityRecord(
	ids: IdSource,
	resource: SecurityResource,
	partial: Record<string, unknown> = {},
	now = new Date().toISOString(),
): SecurityRecord {
	const id = typeof partial.id === 'string' ? partial.id : ids.next(ID_PREFIX[resource]);
	return Object.assign({ id }, defaults(resource, id, now), partial, { id });
}
