import type { SandboxContext } from './context.mts';
import { MOUNTS } from './mounts.mts';
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
