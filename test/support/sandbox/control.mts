import type { SandboxContext } from './context.mts';
import { MOUNTS } from './mounts.mts';
import { payloads } from './events.mts';
import { makeAudit, STRATEGIES } from './performanceModel.mts';
import type { PerformanceSite, SiteStatus, Strategy } from './performanceModel.mts';
import { jsonReply, parseObjectBody, performanceError } from './reply.mts';
import type { IncomingCall, Reply } from './reply.mts';
import { SECURITY_RESOURCES } from './securityModel.mts';
import type { SecurityResource } from './securityModel.mts';
import type { SandboxOptions } from './types.mts';

const ROUTES = [
	'GET /state',
	'GET /requests',
	'GET /deliveries',
	'GET /webhooks',
	'POST /webhooks {url, events?, secret?}',
	'POST /webhooks/{id}/resume',
	'DELETE /webhooks/{id}',
	'POST /emit {type, data?}',
	'GET /faults',
	'POST /faults {service, method?, path, kind, times?, delayMs?}',
	'DELETE /faults',
	'GET /options',
	'POST /options {partial options}',
	'POST /reset',
	'POST /security/{sites|scans|threats|updates|reports} {partial record}',
	'POST /performance/sites {count?, status?}',
	'POST /performance/sites/{id}/status {status}',
	'POST /performance/sites/{id}/audits {strategy?, score?}',
	'POST /chat/incoming {any JSON}',
	'GET /chat/messages',
];

const badRequest = (message: string): Reply => performanceError(400, 'invalid_request', message);
const notFound = (message: string): Reply => performanceError(404, 'not_found', message);

export function controlState(ctx: SandboxContext): Record<string, unknown> {
	return {
		origin: ctx.origin,
		performanceUrl: ctx.origin + MOUNTS.performance,
		securityUrl: ctx.origin + MOUNTS.security,
		controlUrl: ctx.origin + MOUNTS.control,
		options: ctx.options,
		endpoints: ctx.webhooks.states(),
		notices: ctx.notices,
		faults: ctx.faults.list(),
		queue: ctx.perf.queue,
		counts: {
			requests: ctx.requests.length,
			deliveries: ctx.deliveries.length,
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

function addWebhook(ctx: SandboxContext, body: Record<string, unknown>): Reply {
	const { url, events, secret } = body;
	if (typeof url !== 'string') return badRequest('url is required');
	if (
		events !== undefined &&
		!(Array.isArray(events) && events.every((type) => typeof type === 'string'))
	) {
		return badRequest('events must be an array of event types');
	}
	if (secret !== undefined && typeof secret !== 'string')
		return badRequest('secret must be a string');
	const id = ctx.webhooks.add(url, { events, secret });
	return jsonReply(201, { id });
}

const SITE_STATUSES: readonly SiteStatus[] = ['HEALTHY', 'DEGRADED', 'CRITICAL', 'PENDING'];

function findSite(ctx: SandboxContext, id: string): PerformanceSite | undefined {
	return ctx.perf.sites.find((site) => site.id === id);
}

/** Adds `count` sites (default 1) at once, past the site-creation limit, each announced as site.added. */
function addSites(ctx: SandboxContext, body: Record<string, unknown>): Reply {
	const { count = 1, status = 'PENDING' } = body;
	if (!(Number.isInteger(count) && (count as number) > 0))
		return badRequest('count must be a positive integer');
	if (!SITE_STATUSES.includes(status as SiteStatus))
		return badRequest(`status must be one of ${SITE_STATUSES.join(', ')}`);
	const added = Array.from({ length: count as number }, () => {
		const id = ctx.ids.next('site');
		const site: PerformanceSite = {
			id,
			name: `Site ${id}`,
			hostname: `${id.replace(/_/g, '-')}.example.com`,
			status: status as SiteStatus,
			audits: [],
			events: [],
			targetScore: 80,
			nextScores: { mobile: 86, desktop: 94 },
		};
		ctx.perf.sites.push(site);
		ctx.publish('site.added', payloads.siteAdded(site), site, `Site ${site.name} was added`);
		return { id, name: site.name, hostname: site.hostname, status: site.status };
	});
	return jsonReply(201, { sites: added });
}

/** Sets a site's status as the service's health checks would. */
function setSiteStatus(ctx: SandboxContext, id: string, body: Record<string, unknown>): Reply {
	const site = findSite(ctx, id);
	if (!site) return notFound(`Site ${id} was not found`);
	if (!SITE_STATUSES.includes(body.status as SiteStatus))
		return badRequest(`status must be one of ${SITE_STATUSES.join(', ')}`);
	site.status = body.status as SiteStatus;
	ctx.noteSiteEvent(site, 'site.updated', `Status set to ${site.status}`);
	return jsonReply(200, { id: site.id, status: site.status });
}

/** Completes one audit of a site now, without a reoptimization (the site's status stays). */
function addAudit(ctx: SandboxContext, id: string, body: Record<string, unknown>): Reply {
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

/** Throws for invalid input; handleControl turns that into a 400. */
function route(ctx: SandboxContext, call: IncomingCall, body: Record<string, unknown>): Reply {
	const { method, path } = call;
	const key = `${method} ${path}`;
	switch (key) {
		case 'GET /':
			return jsonReply(200, {
				routes: ROUTES.map((route) => route.replace(' /', ` ${MOUNTS.control}/`)),
			});
		case 'GET /state':
			return jsonReply(200, controlState(ctx));
		case 'GET /requests':
			return jsonReply(200, { requests: ctx.requests });
		case 'GET /deliveries':
			return jsonReply(200, { deliveries: ctx.deliveries });
		case 'GET /webhooks':
			return jsonReply(200, { endpoints: ctx.webhooks.states() });
		case 'POST /webhooks':
			return addWebhook(ctx, body);
		case 'POST /emit': {
			const { type, data } = body;
			if (
				data !== undefined &&
				!(typeof data === 'object' && data !== null && !Array.isArray(data))
			) {
				return badRequest('data must be an object');
			}
			const event = ctx.emit(String(type), data as Record<string, unknown> | undefined);
			return jsonReply(202, { id: event.id, event });
		}
		case 'GET /faults':
			return jsonReply(200, { faults: ctx.faults.list() });
		case 'POST /faults':
			ctx.faults.add(body);
			return jsonReply(201, { faults: ctx.faults.list() });
		case 'DELETE /faults':
			ctx.faults.clear();
			return jsonReply(200, { faults: [] });
		case 'GET /options':
			return jsonReply(200, { options: ctx.options });
		case 'POST /options':
			ctx.setOptions(body as SandboxOptions);
			return jsonReply(200, { options: ctx.options });
		case 'POST /reset':
			ctx.reset();
			return jsonReply(200, { ok: true });
		case 'POST /chat/incoming':
			ctx.chat.push({ receivedAt: new Date().toISOString(), body: parseChatBody(call.body) });
			return jsonReply(200, { ok: true });
		case 'GET /chat/messages':
			return jsonReply(200, { messages: ctx.chat });
		case 'POST /performance/sites':
			return addSites(ctx, body);
	}

	const performanceSite = /^\/performance\/sites\/([A-Za-z0-9_-]+)\/(status|audits)$/.exec(path);
	if (performanceSite && method === 'POST') {
		const [, id, what] = performanceSite;
		return what === 'status' ? setSiteStatus(ctx, id, body) : addAudit(ctx, id, body);
	}

	const webhook = /^\/webhooks\/([A-Za-z0-9_-]+)(\/resume)?$/.exec(path);
	if (webhook && method === 'POST' && webhook[2]) {
		const state = ctx.webhooks.resume(webhook[1]);
		return state ? jsonReply(200, state) : notFound(`Webhook endpoint ${webhook[1]} was not found`);
	}
	if (webhook && method === 'DELETE' && !webhook[2]) {
		return ctx.webhooks.remove(webhook[1])
			? jsonReply(200, { ok: true })
			: notFound(`Webhook endpoint ${webhook[1]} was not found`);
	}

	const security = /^\/security\/([a-z]+)$/.exec(path);
	if (
		security &&
		method === 'POST' &&
		(SECURITY_RESOURCES as readonly string[]).includes(security[1])
	) {
		return jsonReply(201, ctx.addSecurityRecord(security[1] as SecurityResource, body));
	}
	return notFound(`No control route ${method} ${path}`);
}

export function handleControl(ctx: SandboxContext, call: IncomingCall): Reply {
	const isChat = call.path === '/chat/incoming';
	const body = isChat ? {} : parseObjectBody(call.body);
	if (!body) return badRequest('Request body must be a JSON object');
	try {
		return route(ctx, call, body);
	} catch (error) {
		return badRequest(error instanceof Error ? error.message : String(error));
	}
}
