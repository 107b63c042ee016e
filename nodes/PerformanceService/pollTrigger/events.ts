import type { FilterField, PollEvent } from '../../shared/polling/pollEvent';
import { PERFORMANCE_LIMITS, PERFORMANCE_SCOPES } from '../transport/serviceValues';

/** The audits of one site: filled from the "Site" parameter, not from the Filters collection. */
const AUDIT_SITE: FilterField = {
	name: 'siteId',
	displayName: 'Site',
	fields: ['siteId', 'site_id'],
	placeholder: 'e.g. site_1',
	parameter: 'siteId',
};

const NEW_STATUS: FilterField = {
	name: 'status',
	displayName: 'New Status Is One Of',
	fields: ['status'],
	placeholder: 'e.g. DEGRADED, CRITICAL',
};

export const POLL_EVENTS: PollEvent[] = [
	{
		value: 'newSite',
		name: 'New Site',
		description: 'A site appears in the site list',
		path: '/sites',
		plural: 'sites',
		scope: PERFORMANCE_SCOPES.sitesRead,
		filters: [],
	},
	{
		value: 'newAudit',
		name: 'New Audit',
		description: 'An audit appears in the audit list (the newest audits the service shows)',
		path: '/audits-list',
		plural: 'audits',
		qs: { limit: PERFORMANCE_LIMITS.auditsPerList },
		scope: PERFORMANCE_SCOPES.auditsRead,
		filters: [AUDIT_SITE],
	},
	{
		value: 'siteStatusChanged',
		name: 'Site Status Changed',
		description: "A listed site's status differs from the one the previous poll saw",
		path: '/sites',
		plural: 'sites',
		scope: PERFORMANCE_SCOPES.sitesRead,
		statusChange: { field: 'status', previousField: 'previousStatus' },
		filters: [NEW_STATUS],
	},
];
