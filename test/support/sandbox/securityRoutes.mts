import { readBearer, SECURITY_KEY } from './auth.mts';
import { MINUTE_MS } from './context.mts';
import type { SandboxContext } from './context.mts';
import { rateLimitHeaders, retryAfterHeader } from './rateLimit.mts';
import { jsonReply, parseObjectBody, securityError, withHeaders } from './reply.mts';
import type { ErrorReply, IncomingCall, Reply } from './reply.mts';
import { matchRoute, refusal } from './routeTable.mts';
import type { PathParams, Route } from './routeTable.mts';
import { FILTERABLE } from './securityModel.mts';
import type { SecurityRecord, SecurityResource } from './securityModel.mts';
import type { SecurityListShape } from './types.mts';

export const PAGE_SIZE = { default: 10, max: 100 } as const;

export interface SecurityCall extends IncomingCall {
	/** Absolute base of the security service as the client addressed it, for pagination links. */
	publicBase: string;
}

type Handler = (
	ctx: SandboxContext,
	call: SecurityCall,
	fail: ErrorReply,
	params: PathParams,
) => Reply;

interface SecurityRoute extends Route {
	handler: Handler;
}

function filtered(
	ctx: SandboxContext,
	resource: SecurityResource,
	query: URLSearchParams,
): SecurityRecord[] {
	return ctx.sec[resource].filter((record) =>
		FILTERABLE[resource].every((field) => {
			const wanted = query.get(field);
			return wanted === null || String(record[field]) === wanted;
		}),
	);
}

function positiveInteger(raw: string | null, fallback: number): number {
	if (raw === null) return fallback;
	return /^\d+$/.test(raw) && Number(raw) >= 1 ? Number(raw) : NaN;
}

/** `cursors`: the cursor names the record a page follows (base64url of its id), so it stays put while records are added. */
function paginateByCursor(
	records: SecurityRecord[],
	perPage: number,
	call: SecurityCall,
	fail: ErrorReply,
): Reply {
	const cursor = call.query.get('cursor');
	let start = 0;
	if (cursor !== null) {
		const after = records.findIndex(
			(record) => record.id === Buffer.from(cursor, 'base64url').toString(),
		);
		if (after < 0) return fail(400, 'invalid_request', 'cursor is not valid');
		start = after + 1;
	}
	const data = records.slice(start, start + perPage);
	const more = start + perPage < records.length;
	const nextCursor = more ? Buffer.from(data[data.length - 1].id).toString('base64url') : null;
	return jsonReply(200, { data, nextCursor });
}

function paginate(
	resource: SecurityResource,
	records: SecurityRecord[],
	call: SecurityCall,
	fail: ErrorReply,
	shape: SecurityListShape,
): Reply {
	const page = positiveInteger(call.query.get('page'), 1);
	const perPage = positiveInteger(call.query.get('per_page'), PAGE_SIZE.default);
	if (Number.isNaN(page)) return fail(400, 'invalid_request', 'page must be a positive integer');
	if (Number.isNaN(perPage) || perPage > PAGE_SIZE.max) {
		return fail(400, 'invalid_request', `per_page must be an integer from 1 to ${PAGE_SIZE.max}`);
	}
	if (shape === 'cursors') return paginateByCursor(records, perPage, call, fail);
	const totalPages = Math.max(1, Math.ceil(records.length / perPage));
	let next: string | null = null;
	if (page < totalPages) {
		const query = new URLSearchParams(call.query);
		query.set('page', String(page + 1));
		next = `${call.publicBase}/${resource}?${query.toString()}`;
	}
	const data = records.slice((page - 1) * perPage, page * perPage);
	if (shape === 'pageNumbers') return jsonReply(200, { data, page, totalPages });
	if (shape === 'nextLinks') return jsonReply(200, { data, next });
	return jsonReply(
		200,
		{ data, page, totalPages, next },
		next ? { link: `<${next}>; rel="next"` } : {},
	);
}

/** List routes are `/<resource>`. */
function listRecords(ctx: SandboxContext, call: SecurityCall, fail: ErrorReply): Reply {
	const resource = call.path.slice(1) as SecurityResource;
	const inOrder = filtered(ctx, resource, call.query);
	const records =
		ctx.options.securityListOrder === 'newestFirst' ? [...inOrder].reverse() : inOrder;
	const shape = ctx.options.securityListShape;
	switch (shape) {
		case 'bare':
			return jsonReply(200, records);
		case 'wrapped':
			return jsonReply(200, { [resource]: records });
		case 'data':
			return jsonReply(200, { data: records });
		case 'paginated':
		case 'pageNumbers':
		case 'nextLinks':
		case 'cursors':
			return paginate(resource, records, call, fail, shape);
	}
}

/** Clients may send extra fields, which are stored and echoed, but never choose the id. */
function withoutId(body: Record<string, unknown>): Record<string, unknown> {
	return Object.fromEntries(Object.entries(body).filter(([key]) => key !== 'id'));
}

function createSite(ctx: SandboxContext, call: SecurityCall, fail: ErrorReply): Reply {
	const body = parseObjectBody(call.body);
	if (!body) return fail(400, 'invalid_request', 'Request body must be a JSON object');
	const { url, name } = body;
	if (typeof url !== 'string' || url.trim() === '')
		return fail(400, 'invalid_request', 'url is required');
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return fail(400, 'invalid_request', 'url must be an absolute http(s) URL');
	}
	if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
		return fail(400, 'invalid_request', 'url must be an absolute http(s) URL');
	}
	if (name !== undefined && typeof name !== 'string')
		return fail(400, 'invalid_request', 'name must be a string');
	const site = ctx.addSecurityRecord('sites', {
		...withoutId(body),
		url,
		name: name ?? parsed.hostname,
		createdAt: new Date().toISOString(),
	});
	return jsonReply(201, site);
}

/** A triggered scan runs after half of queueDelayMs and completes after the other half (its creation and its completion are announced). */
function triggerScan(ctx: SandboxContext, call: SecurityCall, fail: ErrorReply): Reply {
	const body = parseObjectBody(call.body);
	if (!body) return fail(400, 'invalid_request', 'Request body must be a JSON object');
	const { siteId } = body;
	if (typeof siteId !== 'string' || siteId === '')
		return fail(400, 'invalid_request', 'siteId is required');
	if (!ctx.sec.sites.some((site) => site.id === siteId))
		return fail(404, 'not_found', `Site ${siteId} was not found`);
	const scan = ctx.addSecurityRecord('scans', {
		...withoutId(body),
		siteId,
		status: 'queued',
		startedAt: null,
		finishedAt: null,
	});
	const half = ctx.scheduler.scaled(ctx.options.queueDelayMs) / 2;
	ctx.scheduler.after(half, () => {
		Object.assign(scan, { status: 'running', startedAt: new Date().toISOString() });
		ctx.scheduler.after(half, () => {
			Object.assign(scan, { status: 'completed', finishedAt: new Date().toISOString() });
			ctx.publishSecurity('scan.completed', scan);
		});
	});
	return jsonReply(202, { ...scan });
}

function resolveThreat(
	ctx: SandboxContext,
	_call: SecurityCall,
	fail: ErrorReply,
	{ id }: PathParams,
): Reply {
	const threat = ctx.sec.threats.find((record) => record.id === id);
	if (!threat) return fail(404, 'not_found', `Threat ${id} was not found`);
	if (threat.status === 'resolved')
		return fail(409, 'conflict', `Threat ${id} is already resolved`);
	Object.assign(threat, { status: 'resolved', resolvedAt: new Date().toISOString() });
	return jsonReply(200, threat);
}

const ROUTES: SecurityRoute[] = [
	{ method: 'GET', path: '/sites', handler: listRecords },
	{ method: 'POST', path: '/sites', handler: createSite },
	{ method: 'GET', path: '/scans', handler: listRecords },
	{ method: 'POST', path: '/scans/trigger', handler: triggerScan },
	{ method: 'GET', path: '/threats', handler: listRecords },
	{ method: 'PATCH', path: '/threats/:id/resolve', handler: resolveThreat },
	{ method: 'GET', path: '/updates', handler: listRecords },
	{ method: 'GET', path: '/reports', handler: listRecords },
];

function route(ctx: SandboxContext, call: SecurityCall, fail: ErrorReply): Reply {
	const match = matchRoute(ROUTES, call.method, call.path);
	if (!match || 'allow' in match) return refusal(match, call, fail);
	return match.route.handler(ctx, call, fail, match.params);
}

export function handleSecurity(ctx: SandboxContext, call: SecurityCall): Reply {
	const fail: ErrorReply = (status, code, message) =>
		securityError(ctx.options.securityErrorShape, status, code, message);
	const credential = readBearer(call.headers);
	if (credential.kind === 'missing') return fail(401, 'unauthorized', 'Missing API key');
	if (credential.kind !== 'bearer' || credential.token !== SECURITY_KEY) {
		return fail(401, 'unauthorized', 'Invalid API key');
	}
	const now = Date.now();
	const perMinute = ctx.options.limits.securityRequestsPerMinute;
	const limit = ctx.limiters.security.take(
		credential.token,
		perMinute,
		ctx.scheduler.scaled(MINUTE_MS),
		now,
	);
	const response = withHeaders(
		limit.allowed
			? route(ctx, call, fail)
			: fail(429, 'rate_limited', `Rate limit of ${perMinute} requests per minute reached`),
		ctx.options.securityRateLimitHeaders
			? rateLimitHeaders(limit, ctx.options.resetFormat, now)
			: {},
	);
	return response.status === 429 ? withHeaders(response, retryAfterHeader(limit, now)) : response;
}
