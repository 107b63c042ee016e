import type { SandboxContext } from './context.mts';
import { MOUNTS } from './mounts.mts';
import { payloads } from './events.mts';
import { makeAudit, STRATEGIES } from './performanceModel.mts';
import type { Strategy } from './performanceModel.mts';
import {
	addSite,
	findSite,
	isSiteStatus,
	setSiteStatus,
	SITE_STATUSES,
} from './performanceRoutes.mts';
import { jsonReply, parseObjectBody, performanceError } from './reply.mts';
import type { IncomingCall, Reply } from './reply.mts';
import { matchRoute } from './routeTable.mts';
import type { PathParams, Route } from './routeTable.mts';
import { isSecurityEventType, SECURITY_EVENT_TYPES } from './securityEvents.mts';
import { SECURITY_RESOURCES } from './securityModel.mts';
import type { SecurityResource } from './securityModel.mts';
import type { SandboxOptions } from './types.mts';
import type { WebhookDispatcher } from './webhooks.mts';

const badRequest = (message: string): Reply => performanceError(400, 'invalid_request', message);
const notFound = (message: string): Reply => performanceError(404, 'not_found', message);

function controlState(ctx: SandboxContext): Record<string, unknown> {
	return {
		origin: ctx.origin,
		performanceUrl: ctx.origin + MOUNTS.performance,
		securityUrl: ctx.origin + MOUNTS.security,
		controlUrl: ctx.origin + MOUNTS.control,
		options: ctx.options,
		endpoints: ctx.webhooks.states(),
		securityEndpoints: ctx.securityWebhooks.states(),
		notices: ctx.notices,
		faults: ctx.faults.list(),
		queue: ctx.perf.queue,
		counts: {
			requests: ctx.requests.length,
			deliveries: ctx.deliveries.length,
			securityDeliveries: ctx.securityDeliveries.length,
			chatMessages: ctx.chat.length,
			performanceSites: ctx.perf.sites.length,
			alerts: ctx.perf.alerts.length,
			...Object.fromEntries(
				SECURITY_RESOURCES.map((resource) => [`security_${resource}`, ctx.sec[resource].length]),
			),
		},
	};
}

function parseChatBody(body: string): unknown {
	try {
		return JSON.parse(body);
	} catch {
		return body;
	}
}

type Handler = (
	ctx: SandboxContext,
	call: IncomingCall,
	body: Record<string, unknown>,
	params: PathParams,
) => Reply;

interface ControlRoute extends Route {
	handler: Handler;
	/** One line for the route lists of `GET /` and `GET /_control`. */
	does: string;
}

function listRoutes(): Reply {
	return jsonReply(200, { routes: controlRouteList() });
}

function state(ctx: SandboxContext): Reply {
	return jsonReply(200, controlState(ctx));
}

function listRequests(ctx: SandboxContext): Reply {
	return jsonReply(200, { requests: ctx.requests });
}

/**
 * The webhook routes of one service below `prefix` (the performance service's at the top, the
 * security service's below `/security`); only a service that signs takes a `secret`.
 */
function webhookRoutes(
	prefix: string,
	of: (ctx: SandboxContext) => WebhookDispatcher<object>,
	{ signed }: { signed: boolean },
): ControlRoute[] {
	const missing = (id: string): Reply => notFound(`Webhook endpoint ${id} was not found`);
	const add: Handler = (ctx, _call, { url, events, secret }) => {
		if (typeof url !== 'string') return badRequest('url is required');
		if (
			events !== undefined &&
			!(Array.isArray(events) && events.every((type) => typeof type === 'string'))
		) {
			return badRequest('events must be an array of event types');
		}
		if (secret !== undefined && !(signed && typeof secret === 'string'))
			return badRequest(signed ? 'secret must be a string' : 'these webhooks are not signed');
		return jsonReply(201, { id: of(ctx).add(url, { events, secret }) });
	};
	const deliveries: Handler = (ctx) => jsonReply(200, { deliveries: of(ctx).deliveries });
	const list: Handler = (ctx) => jsonReply(200, { endpoints: of(ctx).states() });
	const resume: Handler = (ctx, _call, _body, { id }) => {
		const state = of(ctx).resume(id);
		return state ? jsonReply(200, state) : missing(id);
	};
	const remove: Handler = (ctx, _call, _body, { id }) =>
		of(ctx).remove(id) ? jsonReply(200, { ok: true }) : missing(id);
	const body = signed ? '{url, events?, secret?}' : '{url, events?}';
	// prettier-ignore
	return [
		{ method: 'GET', path: `${prefix}/deliveries`, handler: deliveries, does: 'webhook delivery attempts' },
		{ method: 'GET', path: `${prefix}/webhooks`, handler: list, does: 'registered webhook endpoints' },
		{ method: 'POST', path: `${prefix}/webhooks`, handler: add, does: `register an endpoint ${body}` },
		{ method: 'POST', path: `${prefix}/webhooks/:id/resume`, handler: resume, does: 'resume a paused endpoint' },
		{ method: 'DELETE', path: `${prefix}/webhooks/:id`, handler: remove, does: 'remove an endpoint' },
	];
}

function emit(ctx: SandboxContext, _call: IncomingCall, body: Record<string, unknown>): Reply {
	const { type, data } = body;
	if (data !== undefined && !(typeof data === 'object' && data !== null && !Array.isArray(data))) {
		return badRequest('data must be an object');
	}
	const event = ctx.emit(String(type), data as Record<string, unknown> | undefined);
	return jsonReply(202, { id: event.id, event });
}

function listFaults(ctx: SandboxContext): Reply {
	return jsonReply(200, { faults: ctx.faults.list() });
}

function addFault(ctx: SandboxContext, _call: IncomingCall, body: Record<string, unknown>): Reply {
	ctx.faults.add(body);
	return jsonReply(201, { faults: ctx.faults.list() });
}

function clearFaults(ctx: SandboxContext): Reply {
	ctx.faults.clear();
	return jsonReply(200, { faults: [] });
}

function readOptions(ctx: SandboxContext): Reply {
	return jsonReply(200, { options: ctx.options });
}

function changeOptions(
	ctx: SandboxContext,
	_call: IncomingCall,
	body: Record<string, unknown>,
): Reply {
	ctx.setOptions(body as SandboxOptions);
	return jsonReply(200, { options: ctx.options });
}

function reset(ctx: SandboxContext): Reply {
	ctx.reset();
	return jsonReply(200, { ok: true });
}

function addSecurityRecord(
	ctx: SandboxContext,
	call: IncomingCall,
	body: Record<string, unknown>,
	{ resource }: PathParams,
): Reply {
	if (!(SECURITY_RESOURCES as readonly string[]).includes(resource)) {
		return notFound(`No control route ${call.method} ${call.path}`);
	}
	return jsonReply(201, ctx.addSecurityRecord(resource as SecurityResource, body));
}

/** Sends `count` security events at once, by default each about a threat it adds. */
function ringSecurity(
	ctx: SandboxContext,
	_call: IncomingCall,
	body: Record<string, unknown>,
): Reply {
	const { count, event, newRecords } = body;
	if (count !== undefined && !(Number.isInteger(count) && (count as number) > 0))
		return badRequest('count must be a positive integer');
	if (event !== undefined && !isSecurityEventType(event))
		return badRequest(`event must be one of ${SECURITY_EVENT_TYPES.join(', ')}`);
	if (newRecords !== undefined && typeof newRecords !== 'boolean')
		return badRequest('newRecords must be true or false');
	return jsonReply(202, {
		events: ctx.ringSecurity({ count: count as number | undefined, event, newRecords }),
	});
}

const statusRefused = (): Reply => badRequest(`status must be one of ${SITE_STATUSES.join(', ')}`);

/** Adds `count` sites (default 1) at once, past the site-creation limit, each announced as site.added. */
function addSites(ctx: SandboxContext, _call: IncomingCall, body: Record<string, unknown>): Reply {
	const { count = 1, status = 'PENDING' } = body;
	if (!(Number.isInteger(count) && (count as number) > 0))
		return badRequest('count must be a positive integer');
	if (!isSiteStatus(status)) return statusRefused();
	const added = Array.from({ length: count as number }, () => {
		const site = addSite(ctx, { status });
		return { id: site.id, name: site.name, hostname: site.hostname, status: site.status };
	});
	return jsonReply(201, { sites: added });
}

/** Sets a site's status as the service's health checks would. */
function changeSiteStatus(
	ctx: SandboxContext,
	_call: IncomingCall,
	body: Record<string, unknown>,
	{ id }: PathParams,
): Reply {
	const site = findSite(ctx, id);
	if (!site) return notFound(`Site ${id} was not found`);
	if (!isSiteStatus(body.status)) return statusRefused();
	setSiteStatus(ctx, site, body.status);
	return jsonReply(200, { id: site.id, status: site.status });
}

/** Completes one audit of a site now, without a reoptimization (the site's status stays). */
function addAudit(
	ctx: SandboxContext,
	_call: IncomingCall,
	body: Record<string, unknown>,
	{ id }: PathParams,
): Reply {
	const site = findSite(ctx, id);
	if (!site) return notFound(`Site ${id} was not found`);
	const { strategy = 'mobile', score = 90 } = body;
	if (!STRATEGIES.includes(strategy as Strategy))
		return badRequest(`strategy must be one of ${STRATEGIES.join(', ')}`);
	if (!(Number.isInteger(score) && (score as number) >= 0 && (score as number) <= 100))
		return badRequest('score must be an integer from 0 to 100');
	const audit = makeAudit(
		ctx.ids,
		site.id,
		strategy as Strategy,
		score as number,
		new Date().toISOString(),
	);
	site.audits.unshift(audit);
	ctx.publish(
		'audit.completed',
		payloads.auditCompleted(audit),
		site,
		`Audit ${audit.id} completed`,
	);
	return jsonReply(201, audit);
}

function receiveChatMessage(ctx: SandboxContext, call: IncomingCall): Reply {
	ctx.chat.push({ receivedAt: new Date().toISOString(), body: parseChatBody(call.body) });
	return jsonReply(200, { ok: true });
}

function listChatMessages(ctx: SandboxContext): Reply {
	return jsonReply(200, { messages: ctx.chat });
}

/** Handlers throw for invalid input; handleControl turns that into a 400. */
// prettier-ignore
const ROUTES: ControlRoute[] = [
	{ method: 'GET', path: '/', handler: listRoutes, does: 'this list' },
	{ method: 'GET', path: '/state', handler: state, does: 'URLs, options, endpoints of both services, notices, faults, queue, counts' },
	{ method: 'GET', path: '/requests', handler: listRequests, does: 'service requests received, each with its answer status' },
	...webhookRoutes('', (ctx) => ctx.webhooks, { signed: true }),
	{ method: 'POST', path: '/emit', handler: emit, does: 'deliver a webhook event now {type, data?}' },
	{ method: 'GET', path: '/faults', handler: listFaults, does: 'injected faults' },
	{ method: 'POST', path: '/faults', handler: addFault, does: 'add a fault {service, method?, path, kind, times?, delayMs?}' },
	{ method: 'DELETE', path: '/faults', handler: clearFaults, does: 'clear the faults' },
	{ method: 'GET', path: '/options', handler: readOptions, does: 'current options' },
	{ method: 'POST', path: '/options', handler: changeOptions, does: 'change options {partial options}' },
	{ method: 'POST', path: '/reset', handler: reset, does: 'restore seeds and options; clear records, limits, faults, endpoints' },
	...webhookRoutes('/security', (ctx) => ctx.securityWebhooks, { signed: false }),
	{ method: 'POST', path: '/security/ring', handler: ringSecurity, does: 'send security events now {count?, event?, newRecords?}' },
	{ method: 'POST', path: '/security/:resource', handler: addSecurityRecord, does: 'add a site, scan, threat, update or report {partial record}' },
	{ method: 'POST', path: '/performance/sites', handler: addSites, does: 'add sites past the creation limit {count?, status?}' },
	{ method: 'POST', path: '/performance/sites/:id/status', handler: changeSiteStatus, does: "set a site's status {status}" },
	{ method: 'POST', path: '/performance/sites/:id/audits', handler: addAudit, does: 'complete one audit of a site now {strategy?, score?}' },
	{ method: 'POST', path: '/chat/incoming', handler: receiveChatMessage, does: 'chat sink of the example workflows {any JSON}' },
	{ method: 'GET', path: '/chat/messages', handler: listChatMessages, does: 'messages the chat sink received' },
];

/** `{ "GET /_control/state": "what it does", … }` */
export function controlRouteList(): Record<string, string> {
	return Object.fromEntries(
		ROUTES.map(({ method, path, does }) => [
			`${method} ${MOUNTS.control}${path === '/' ? '' : path}`,
			does,
		]),
	);
}

export function handleControl(ctx: SandboxContext, call: IncomingCall): Reply {
	const isChat = call.path === '/chat/incoming';
	const body = isChat ? {} : parseObjectBody(call.body);
	if (!body) return badRequest('Request body must be a JSON object');
	const match = matchRoute(ROUTES, call.method, call.path);
	if (!match || 'allow' in match) return notFound(`No control route ${call.method} ${call.path}`);
	try {
		return match.route.handler(ctx, call, body, match.params);
	} catch (error) {
		return badRequest(error instanceof Error ? error.message : String(error));
	}
}
