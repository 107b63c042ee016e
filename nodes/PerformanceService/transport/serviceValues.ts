/** What the performance service's API defines: token scopes, published limits, webhook event types. */

/** The token scopes the nodes' requests need (the service also has `sites:write`, which no node uses). */
export const PERFORMANCE_SCOPES = {
	sitesRead: 'sites:read',
	auditsRead: 'audits:read',
	auditsWrite: 'audits:write',
} as const;

/** The service's published limits. */
export const PERFORMANCE_LIMITS = {
	requestsPerMinutePerToken: 1000,
	/** The most audits GET /audits-list is asked for at once (its maximum is not published; the sandbox's is 100). */
	auditsPerList: 100,
	reoptimizationsPerSitePerHour: 20,
} as const;

/** The event types the service delivers to webhooks. */
export const PERFORMANCE_EVENT_TYPES = [
	'site.added',
	'audit.completed',
	'audit.regression',
	'alert.opened',
	'alert.resolved',
	'artifact.published',
] as const;

export type PerformanceEventType = (typeof PERFORMANCE_EVENT_TYPES)[number];
