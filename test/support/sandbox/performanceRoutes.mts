import { PERFORMANCE_SCOPES } from './serviceValues.mts';
import { ORGANISATION_ID, readBearer, scopesOf } from './auth.mts';
import type { Scope } from './auth.mts';
import { HOUR_MS, MINUTE_MS } from './context.mts';
import type { SandboxContext } from './context.mts';
import { payloads } from './events.mts';
import { siteDetailView, siteView } from './performanceModel.mts';
import type { PerformanceSite, SiteStatus } from './performanceModel.mts';
import { rateLimitHeaders, retryAfterHeader } from './rateLimit.mts';
import type { LimitState } from './rateLimit.mts';
import { jsonReply, parseObjectBody, performanceError, withHeaders } from './reply.mts';
import type { IncomingCall, Reply } from './reply.mts';
import { matchRoute, refusal } from './routeTable.mts';
import type { PathParams, Route } from './routeTable.mts';
import { queueReoptimization } from './reoptimize.mts';

export const AUDIT_LIMIT = { default: 20, min: 1, max: 100 } as const;
export const SERVICE_VERSION = '1.4.2';

interface RouteResult {
	reply: Reply;
	/** A narrower limit the X-RateLimit-* headers describe instead of the per-token one. */
	limit?: LimitState;
}

type Handler = (ctx: SandboxContext, call: IncomingCall, params: PathParams) => RouteResult;

interface PerformanceRoute extends Route {
	/** The token scope the route needs; null: any valid token. */
	scope: Scope | null;
	handler: Handler;
}

const HOSTNAME =
	/^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

const reply = (value: Reply): RouteResult => ({ reply: value });

function rateLimited(message: string, limit?: LimitState): RouteResult {
	return { reply: performanceError(429, 'rate_limited', message), limit };
}

export function findSite(ctx: SandboxContext, id: string): PerformanceSite | undefined {
	return ctx.perf.sites.find((site) => site.id === id);
}

function siteNotFound(id: string): RouteResult {
	return reply(performanceError(404, 'not_found', `Site ${id} was not found`));
}

function invalid(message: string): RouteResult {
	return reply(performanceError(400, 'invalid_request', message));
}

function hostnameConflict(
	ctx: SandboxContext,
	hostname: string,
	exceptId?: string,
): PerformanceSite | undefined {
	return ctx.perf.sites.find((site) => site.hostname === hostname && site.id !== exceptId);
}

function conflict(hostname: string, holder: PerformanceSite, limit?: LimitState): RouteResult {
	return {
		reply: performanceError(
			409,
			'conflict',
			`Hostname ${hostname} is already used by site ${holder.id}`,
		),
		limit,
	};
}

/** Reads optional `name` and `hostname`; hostnames are trimmed and lower-cased. */
function readSiteFields(
	body: Record<string, unknown>,
	required: boolean,
): { name?: string; hostname?: string } | { error: string } {
	const fields: { name?: string; hostname?: string } = {};
	for (const field of ['name', 'hostname'] as const) {
		const value = body[field];
		if (value === undefined && !required) continue;
		if (typeof value !== 'string' || value.trim() === '')
			return { error: `${field} must be a non-empty string` };
		fields[field] = field === 'hostname' ? value.trim().toLowerCase() : value.trim();
	}
	if (fields.hostname !== undefined && !HOSTNAME.test(fields.hostname)) {
		return { error: `hostname ${fields.hostname} is not a valid host name` };
	}
	return fields;
}

function listSites(ctx: SandboxContext): RouteResult {
	return reply(jsonReply(200, { sites: ctx.perf.sites.map(siteView) }));
}

function getSite(ctx: SandboxContext, _call: IncomingCall, { id }: PathParams): RouteResult {
	const site = findSite(ctx, id);
	return site ? reply(jsonReply(200, siteDetailView(site))) : siteNotFound(id);
}

function createSite(ctx: SandboxContext, call: IncomingCall): RouteResult {
	const body = parseObjectBody(call.body);
	if (!body) return invalid('Request body must be a JSON object');
	const fields = readSiteFields(body, true);
	if ('error' in fields) return invalid(fields.error);
	const { limits } = ctx.options;
	const limit = ctx.limiters.siteCreations.take(
		ORGANISATION_ID,
		limits.siteCreationsPerMinute,
		ctx.scheduler.scaled(MINUTE_MS),
	);
	if (!limit.allowed) {
		return rateLimited(
			`Site creation limit of ${limits.siteCreationsPerMinute} per minute for organisation ${ORGANISATION_ID} reached`,
			limit,
		);
	}
	const hostname = fields.hostname ?? '';
	const holder = hostnameConflict(ctx, hostname);
	if (holder) return conflict(hostname, holder, limit);
	const site = addSite(ctx, { name: fields.name ?? hostname, hostname, status: 'PENDING' });
	return { reply: jsonReply(201, siteView(site)), limit };
}

/** Adds a site without audits and announces it as site.added; name and hostname default from its id. */
export function addSite(
	ctx: SandboxContext,
	fields: { status: SiteStatus; name?: string; hostname?: string },
): PerformanceSite {
	const id = ctx.ids.next('site');
	const site: PerformanceSite = {
		id,
		name: fields.name ?? `Site ${id}`,
		hostname: fields.hostname ?? `${id.replace(/_/g, '-')}.example.com`,
		status: fields.status,
		audits: [],
		events: [],
		targetScore: 80,
		nextScores: { mobile: 86, desktop: 94 },
	};
	ctx.perf.sites.push(site);
	ctx.publish('site.added', payloads.siteAdded(site), site, `Site ${site.name} was added`);
	return site;
}

export const SITE_STATUSES: readonly SiteStatus[] = ['HEALTHY', 'DEGRADED', 'CRITICAL', 'PENDING'];

export function isSiteStatus(value: unknown): value is SiteStatus {
	return SITE_STATUSES.includes(value as SiteStatus);
}

/** Sets a site's status as the service's health checks would, noted among the site's events. */
export function setSiteStatus(
	ctx: SandboxContext,
	site: PerformanceSite,
	status: SiteStatus,
): void {
	site.status = status;
	ctx.noteSiteEvent(site, 'site.updated', `Status set to ${status}`);
}

function updateSite(ctx: SandboxContext, call: IncomingCall, { id }: PathParams): RouteResult {
	const site = findSite(ctx, id);
	if (!site) return siteNotFound(id);
	const body = parseObjectBody(call.body);
	if (!body) return invalid('Request body must be a JSON object');
	const fields = readSiteFields(body, false);
	if ('error' in fields) return invalid(fields.error);
	if (fields.hostname !== undefined) {
		const holder = hostnameConflict(ctx, fields.hostname, site.id);
		if (holder) return conflict(fields.hostname, holder);
	}
	Object.assign(site, fields);
	ctx.noteSiteEvent(
		site,
		'site.updated',
		`Site updated: ${Object.keys(fields).join(', ') || 'no changes'}`,
	);
	return reply(jsonReply(200, siteView(site)));
}

function reoptimize(ctx: SandboxContext, _call: IncomingCall, { id }: PathParams): RouteResult {
	const site = findSite(ctx, id);
	if (!site) return siteNotFound(id);
	const perHour = ctx.options.limits.reoptimizationsPerHour;
	const limit = ctx.limiters.reoptimizations.take(site.id, perHour, ctx.scheduler.scaled(HOUR_MS));
	if (!limit.allowed) {
		return rateLimited(
			`Reoptimization limit of ${perHour} per hour for site ${site.id} reached`,
			limit,
		);
	}
	return { reply: jsonReply(200, { ok: true, queued: queueReoptimization(ctx, site) }), limit };
}

function listAudits(ctx: SandboxContext, call: IncomingCall): RouteResult {
	const raw = call.query.get('limit');
	const limit = raw === null ? AUDIT_LIMIT.default : /^\d+$/.test(raw) ? Number(raw) : NaN;
	if (!(limit >= AUDIT_LIMIT.min && limit <= AUDIT_LIMIT.max)) {
		return invalid(`limit must be an integer from ${AUDIT_LIMIT.min} to ${AUDIT_LIMIT.max}`);
	}
	const sequence = (id: string): number => Number(id.slice(id.lastIndexOf('_') + 1));
	const audits = ctx.perf.sites
		.flatMap((site) => site.audits)
		.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || sequence(b.id) - sequence(a.id));
	return reply(jsonReply(200, { audits: audits.slice(0, limit), limit }));
}

function system(ctx: SandboxContext): RouteResult {
	return reply(
		jsonReply(200, {
			status: 'ok',
			version: SERVICE_VERSION,
			queue: { ...ctx.perf.queue },
			time: new Date().toISOString(),
		}),
	);
}

const { sitesRead, sitesWrite, auditsRead, auditsWrite } = PERFORMANCE_SCOPES;
const ROUTES: PerformanceRoute[] = [
	{ method: 'GET', path: '/sites', scope: sitesRead, handler: listSites },
	{ method: 'POST', path: '/sites', scope: sitesWrite, handler: createSite },
	{ method: 'GET', path: '/sites/:id', scope: sitesRead, handler: getSite },
	{ method: 'PATCH', path: '/sites/:id', scope: sitesWrite, handler: updateSite },
	{ method: 'POST', path: '/sites/:id/reoptimize', scope: auditsWrite, handler: reoptimize },
	{ method: 'GET', path: '/audits-list', scope: auditsRead, handler: listAudits },
	{ method: 'GET', path: '/system', scope: null, handler: system },
];

function route(ctx: SandboxContext, call: IncomingCall, scopes: readonly Scope[]): RouteResult {
	const match = matchRoute(ROUTES, call.method, call.path);
	if (!match || 'allow' in match) return reply(refusal(match, call, performanceError));
	const { scope, handler } = match.route;
	if (scope && !scopes.includes(scope)) {
		return reply(
			performanceError(403, 'insufficient_scope', `This operation requires the scope ${scope}`, {
				required_scope: scope,
			}),
		);
	}
	return handler(ctx, call, match.params);
}

export function handlePerformance(ctx: SandboxContext, call: IncomingCall): Reply {
	const credential = readBearer(call.headers);
	if (credential.kind === 'missing') {
		return performanceError(
			401,
			'auth_required',
			'Send the header Authorization: Bearer <API_TOKEN>',
		);
	}
	const scopes = credential.kind === 'bearer' ? scopesOf(credential.token) : undefined;
	if (credential.kind !== 'bearer' || !scopes) {
		return performanceError(401, 'auth_invalid', 'The bearer token is not valid');
	}
	const now = Date.now();
	const perMinute = ctx.options.limits.requestsPerMinute;
	const general = ctx.limiters.requests.take(
		credential.token,
		perMinute,
		ctx.scheduler.scaled(MINUTE_MS),
		now,
	);
	const result = general.allowed
		? route(ctx, call, scopes)
		: rateLimited(`Request limit of ${perMinute} per minute for this token reached`);
	const limit = result.limit ?? general;
	const response = withHeaders(result.reply, rateLimitHeaders(limit, ctx.options.resetFormat, now));
	return response.status === 429 && ctx.options.retryAfter
		? withHeaders(response, retryAfterHeader(limit, now))
		: response;
}
