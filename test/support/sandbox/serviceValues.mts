/**
 * The services' scopes, limits and event types as the service documents
 * (/work/shared/spec) publish them, written here on their own: the sandbox does not take them
 * from the nodes, so a node that gets one wrong fails against it.
 */

/** Performance service: the scopes a token can be created with. */
export const PERFORMANCE_SCOPES = {
	sitesRead: 'sites:read',
	auditsRead: 'audits:read',
	auditsWrite: 'audits:write',
	sitesWrite: 'sites:write',
} as const;

export type Scope = (typeof PERFORMANCE_SCOPES)[keyof typeof PERFORMANCE_SCOPES];

/** Performance service: requests per minute for each token. */
export const REQUESTS_PER_MINUTE = 1000;
/** Performance service: reoptimization triggers per hour for each site. */
export const REOPTIMIZATIONS_PER_HOUR = 20;
/** Performance service: site creations per minute. */
export const SITE_CREATIONS_PER_MINUTE = 5;

/** Security service: requests per minute on the Standard plan (Agency 500, Enterprise unlimited). */
export const SECURITY_STANDARD_PER_MINUTE = 100;

/** The event types the performance service delivers to webhooks. */
export const PERFORMANCE_EVENT_TYPES = [
	'site.added',
	'audit.completed',
	'audit.regression',
	'alert.opened',
	'alert.resolved',
	'artifact.published',
] as const;

export type EventType = (typeof PERFORMANCE_EVENT_TYPES)[number];
