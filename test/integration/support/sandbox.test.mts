import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';

import { withSandbox } from '../../support/harness/sandbox.mts';
import type { DeliveryRecord } from '../../support/sandbox/index.mts';

interface Received {
	headers: IncomingHttpHeaders;
	rawBody: string;
}

interface Receiver {
	url: string;
	received: Received[];
	close(): Promise<void>;
}

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
	while (cleanups.length > 0) await cleanups.pop()?.();
});

const sandbox = withSandbox();

/** A local webhook receiver; `statusFor(n)` decides the answer to the n-th request (1-based). */
async function startReceiver(statusFor: (n: number) => number = () => 200): Promise<Receiver> {
	const received: Received[] = [];
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			received.push({ headers: req.headers, rawBody: Buffer.concat(chunks).toString('utf8') });
			res.writeHead(statusFor(received.length)).end();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const receiver: Receiver = {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
		received,
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
	cleanups.push(() => receiver.close());
	return receiver;
}

function call(
	base: string,
	path: string,
	init: { token?: string; method?: string; body?: unknown } = {},
): Promise<Response> {
	const headers: Record<string, string> = {};
	if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
	if (init.body !== undefined) headers['content-type'] = 'application/json';
	return fetch(base + path, {
		method: init.method ?? 'GET',
		headers,
		body: init.body === undefined ? undefined : JSON.stringify(init.body),
	});
}

async function json(response: Response): Promise<Record<string, unknown>> {
	return (await response.json()) as Record<string, unknown>;
}

function errorOf(body: Record<string, unknown>): Record<string, unknown> {
	return body.error as Record<string, unknown>;
}

function rateHeaders(response: Response): { limit: number; remaining: number; reset: number } {
	return {
		limit: Number(response.headers.get('x-ratelimit-limit')),
		remaining: Number(response.headers.get('x-ratelimit-remaining')),
		reset: Number(response.headers.get('x-ratelimit-reset')),
	};
}

function signatureIsValid(
	secret: string,
	timestamp: string,
	rawBody: string,
	signature: string,
): boolean {
	const expected = Buffer.from(
		createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex'),
		'utf8',
	);
	const given = Buffer.from(signature, 'utf8');
	return expected.length === given.length && timingSafeEqual(expected, given);
}

async function waitUntil(epochMs: number): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, Math.max(0, epochMs - Date.now()) + 20));
}

describe('performance service: authentication and scopes', () => {
	it('answers 401 auth_required without a header and auth_invalid for an unknown token', async () => {
		const missing = await call(sandbox.performanceUrl, '/sites');
		expect(missing.status).toBe(401);
		expect(errorOf(await json(missing))).toMatchObject({ code: 'auth_required' });

		const invalid = await call(sandbox.performanceUrl, '/sites', { token: 'perf_nope' });
		expect(invalid.status).toBe(401);
		expect(errorOf(await json(invalid))).toMatchObject({ code: 'auth_invalid' });
	});

	it('refuses reoptimize for a read-only token with 403 insufficient_scope', async () => {
		const refused = await call(sandbox.performanceUrl, '/sites/site_1/reoptimize', {
			token: sandbox.tokens.readOnly,
			method: 'POST',
		});
		expect(refused.status).toBe(403);
		const error = errorOf(await json(refused));
		expect(error).toMatchObject({
			code: 'insufficient_scope',
			required_scope: 'audits:write',
		});
		expect(error.message).toContain('audits:write');

		const noScopes = await call(sandbox.performanceUrl, '/sites', {
			token: sandbox.tokens.noScopes,
		});
		expect(noScopes.status).toBe(403);
		const system = await call(sandbox.performanceUrl, '/system', {
			token: sandbox.tokens.noScopes,
		});
		expect(system.status).toBe(200);
		expect(await json(system)).toMatchObject({ status: 'ok', queue: { pending: 0, running: 0 } });
	});
});

describe('performance service: routes', () => {
	it('lists sites, reads one with events, lists audits and 404s unknown ids and encoded slashes', async () => {
		const { readOnly } = sandbox.tokens;
		const sites = (await json(await call(sandbox.performanceUrl, '/sites', { token: readOnly })))
			.sites as Array<Record<string, unknown>>;
		expect(sites.length).toBeGreaterThanOrEqual(3);
		expect(Object.keys(sites[0]).sort()).toEqual(['audits', 'hostname', 'id', 'name', 'status']);
		expect(new Set(sites.map((site) => site.status))).toContain('HEALTHY');
		expect(sites.some((site) => site.status !== 'HEALTHY')).toBe(true);

		const one = await json(
			await call(sandbox.performanceUrl, '/sites/site_1', { token: readOnly }),
		);
		expect(one).toMatchObject({ id: 'site_1' });
		expect(Array.isArray(one.events)).toBe(true);

		const audits = await json(
			await call(sandbox.performanceUrl, '/audits-list?limit=3', { token: readOnly }),
		);
		expect(audits.limit).toBe(3);
		const list = audits.audits as Array<{ createdAt: string; metrics: Record<string, number> }>;
		expect(list).toHaveLength(3);
		expect(list[0].createdAt >= list[2].createdAt).toBe(true);
		expect(Object.keys(list[0].metrics).sort()).toEqual(['cls', 'fcp', 'lcp', 'tbt']);
		const outOfRange = await call(sandbox.performanceUrl, '/audits-list?limit=101', {
			token: readOnly,
		});
		expect(outOfRange.status).toBe(400);
		expect(errorOf(await json(outOfRange)).code).toBe('invalid_request');

		const missing = await call(sandbox.performanceUrl, '/sites/site_9', { token: readOnly });
		expect(missing.status).toBe(404);
		expect(errorOf(await json(missing))).toEqual({
			code: 'not_found',
			message: 'Site site_9 was not found',
		});
		const encoded = await call(sandbox.performanceUrl, '/sites/site_1%2Freoptimize', {
			token: readOnly,
		});
		expect(encoded.status).toBe(404);
	});

	it('answers 405 with Allow for a known path and 404 for an unknown one', async () => {
		const token = sandbox.tokens.readWrite;
		const refused = await call(sandbox.performanceUrl, '/sites', { token, method: 'DELETE' });
		expect(refused.status).toBe(405);
		expect(refused.headers.get('allow')).toBe('GET, POST');
		expect(errorOf(await json(refused)).code).toBe('method_not_allowed');
		expect((await call(sandbox.performanceUrl, '/sites/site_1/x', { token })).status).toBe(404);
	});

	it('answers 409 conflict for a duplicate hostname on create and update', async () => {
		const token = sandbox.tokens.readWrite;
		const created = await call(sandbox.performanceUrl, '/sites', {
			token,
			method: 'POST',
			body: { name: 'New', hostname: 'new.example.com' },
		});
		expect(created.status).toBe(201);
		expect(await json(created)).toMatchObject({
			name: 'New',
			hostname: 'new.example.com',
			status: 'PENDING',
		});

		const duplicate = await call(sandbox.performanceUrl, '/sites', {
			token,
			method: 'POST',
			body: { name: 'Again', hostname: 'SHOP.example.com' },
		});
		expect(duplicate.status).toBe(409);
		expect(errorOf(await json(duplicate)).code).toBe('conflict');

		const patched = await call(sandbox.performanceUrl, '/sites/site_2', {
			token,
			method: 'PATCH',
			body: { hostname: 'shop.example.com' },
		});
		expect(patched.status).toBe(409);
		const renamed = await call(sandbox.performanceUrl, '/sites/site_2', {
			token,
			method: 'PATCH',
			body: { name: 'Blog' },
		});
		expect(await json(renamed)).toMatchObject({ id: 'site_2', name: 'Blog' });
	});
});

describe('performance service: rate limits', () => {
	it('limits requests per token per minute (sliding window)', async () => {
		sandbox.setOptions({
			limits: { requestsPerMinute: 3 },
			timeScale: 60,
			resetFormat: 'epochMillis',
		});
		const token = sandbox.tokens.readOnly;
		const remaining: number[] = [];
		for (let i = 0; i < 3; i += 1) {
			const response = await call(sandbox.performanceUrl, '/sites', { token });
			expect(response.status).toBe(200);
			expect(rateHeaders(response).limit).toBe(3);
			remaining.push(rateHeaders(response).remaining);
		}
		expect(remaining).toEqual([2, 1, 0]);

		const limited = await call(sandbox.performanceUrl, '/system', { token });
		expect(limited.status).toBe(429);
		expect(errorOf(await json(limited))).toMatchObject({ code: 'rate_limited' });
		const headers = rateHeaders(limited);
		expect(headers).toMatchObject({ limit: 3, remaining: 0 });
		expect(headers.reset).toBeGreaterThan(Date.now() - 1000);
		expect(limited.headers.get('retry-after')).toBeNull();

		const other = await call(sandbox.performanceUrl, '/sites', { token: sandbox.tokens.readWrite });
		expect(other.status).toBe(200);

		await waitUntil(headers.reset);
		expect((await call(sandbox.performanceUrl, '/sites', { token })).status).toBe(200);
	});

	it('limits reoptimizations per site per hour and describes that limit in the headers', async () => {
		sandbox.setOptions({
			limits: { reoptimizationsPerHour: 2 },
			timeScale: 3600,
			resetFormat: 'secondsUntilReset',
			retryAfter: true,
		});
		const token = sandbox.tokens.readWrite;
		const reoptimize = (site: string): Promise<Response> =>
			call(sandbox.performanceUrl, `/sites/${site}/reoptimize`, { token, method: 'POST' });

		const first = await reoptimize('site_1');
		expect(first.status).toBe(200);
		expect(await json(first)).toEqual({ ok: true, queued: 4 });
		expect(rateHeaders(first)).toMatchObject({ limit: 2, remaining: 1 });
		expect(rateHeaders(await reoptimize('site_1'))).toMatchObject({ limit: 2, remaining: 0 });

		const limited = await reoptimize('site_1');
		expect(limited.status).toBe(429);
		expect(errorOf(await json(limited))).toEqual({
			code: 'rate_limited',
			message: 'Reoptimization limit of 2 per hour for site site_1 reached',
		});
		const headers = rateHeaders(limited);
		expect(headers).toMatchObject({ limit: 2, remaining: 0 });
		expect(headers.reset).toBeGreaterThanOrEqual(0);
		expect(headers.reset).toBeLessThanOrEqual(1);
		expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

		expect((await reoptimize('site_2')).status).toBe(200);
		const listing = await call(sandbox.performanceUrl, '/sites', { token });
		expect(rateHeaders(listing).limit).toBe(1000);

		await new Promise((resolve) => setTimeout(resolve, 1050));
		expect((await reoptimize('site_1')).status).toBe(200);
	});

	it('limits site creations per minute for the organisation', async () => {
		sandbox.setOptions({ limits: { siteCreationsPerMinute: 2 }, timeScale: 120 });
		const create = (n: number, token = sandbox.tokens.readWrite): Promise<Response> =>
			call(sandbox.performanceUrl, '/sites', {
				token,
				method: 'POST',
				body: { name: `Site ${n}`, hostname: `s${n}.example.net` },
			});
		const first = await create(1);
		expect(first.status).toBe(201);
		expect(rateHeaders(first)).toMatchObject({ limit: 2, remaining: 1 });
		expect((await create(2, sandbox.tokens.sitesWrite)).status).toBe(201);

		const limited = await create(3);
		expect(limited.status).toBe(429);
		expect(errorOf(await json(limited)).message).toBe(
			'Site creation limit of 2 per minute for organisation org_1 reached',
		);
		const headers = rateHeaders(limited);
		expect(headers).toMatchObject({ limit: 2, remaining: 0 });
		expect(Math.abs(headers.reset - Date.now() / 1000)).toBeLessThan(5);

		await new Promise((resolve) => setTimeout(resolve, 550));
		expect((await create(3)).status).toBe(201);
	});
});

describe('performance webhooks', () => {
	it('delivers a signed JSON POST that verifies over `${timestamp}.${rawBody}`', async () => {
		const receiver = await startReceiver();
		const endpointId = sandbox.addWebhookEndpoint(receiver.url);
		const event = sandbox.emit('audit.completed');

		const [delivery] = await sandbox.waitForDeliveries((all) => all.length === 1);
		expect(delivery).toMatchObject({
			endpointId,
			eventId: event.id,
			type: 'audit.completed',
			attempt: 1,
			status: 200,
		});
		const [{ headers, rawBody }] = receiver.received;
		expect(headers['content-type']).toBe('application/json');
		const timestamp = String(headers['x-service-webhook-timestamp']);
		const signature = String(headers['x-service-webhook-signature']);
		expect(timestamp).toMatch(/^\d{10}$/);
		expect(signature).toMatch(/^[0-9a-f]{64}$/);
		expect(signatureIsValid(sandbox.signingSecret, timestamp, rawBody, signature)).toBe(true);
		expect(signatureIsValid('wrong-secret', timestamp, rawBody, signature)).toBe(false);
		const payload = JSON.parse(rawBody) as Record<string, unknown>;
		expect(payload).toMatchObject({ id: event.id, type: 'audit.completed' });
		expect(payload.id).toMatch(/^evt_/);
		expect(Object.keys(payload).sort()).toEqual(['createdAt', 'data', 'id', 'type']);
	});

	it('retries a failed delivery with a fresh timestamp and signature', async () => {
		sandbox.setOptions({ webhookBackoffMs: 1200 });
		const receiver = await startReceiver((n) => (n === 1 ? 500 : 204));
		sandbox.addWebhookEndpoint(receiver.url);
		sandbox.emit('site.added');

		const deliveries = await sandbox.waitForDeliveries(
			(all) => all.some((d) => d.status === 204),
			4000,
		);
		expect(deliveries.map((d) => [d.attempt, d.status])).toEqual([
			[1, 500],
			[2, 204],
		]);
		expect(deliveries[0].eventId).toBe(deliveries[1].eventId);
		expect(deliveries[0].body).toBe(deliveries[1].body);
		expect(deliveries[1].timestamp).not.toBe(deliveries[0].timestamp);
		expect(deliveries[1].signature).not.toBe(deliveries[0].signature);
		for (const { headers, rawBody } of receiver.received) {
			const timestamp = String(headers['x-service-webhook-timestamp']);
			expect(
				signatureIsValid(
					sandbox.signingSecret,
					timestamp,
					rawBody,
					String(headers['x-service-webhook-signature']),
				),
			).toBe(true);
		}
		expect(sandbox.endpoints()[0].consecutiveFailures).toBe(0);
	});

	it('pauses an endpoint after 30 consecutive failures and shows it in /_control/state', async () => {
		sandbox.setOptions({ webhookBackoffMs: 5 });
		const failing = await startReceiver(() => 500);
		const healthy = await startReceiver();
		const failingId = sandbox.addWebhookEndpoint(failing.url);
		const healthyId = sandbox.addWebhookEndpoint(healthy.url, { events: ['alert.opened'] });
		for (let i = 0; i < 6; i += 1) sandbox.emit('audit.completed');

		const failures = (all: DeliveryRecord[]): DeliveryRecord[] =>
			all.filter((d) => d.endpointId === failingId);
		await sandbox.waitForDeliveries((all) => failures(all).length === 30);
		expect(Math.max(...failures(sandbox.deliveries).map((d) => d.attempt))).toBe(5);

		const state = await json(await fetch(`${sandbox.origin}/_control/state`));
		const endpoints = state.endpoints as Array<Record<string, unknown>>;
		expect(endpoints.find((e) => e.id === failingId)).toMatchObject({
			paused: true,
			consecutiveFailures: 30,
		});
		expect(typeof endpoints.find((e) => e.id === failingId)?.pausedAt).toBe('string');
		expect(endpoints.find((e) => e.id === healthyId)).toMatchObject({ paused: false });
		expect((state.notices as unknown[]).length).toBe(1);

		sandbox.emit('alert.opened');
		await sandbox.waitForDeliveries((all) => all.some((d) => d.endpointId === healthyId));
		expect(failures(sandbox.deliveries)).toHaveLength(30);

		const resumed = await fetch(`${sandbox.origin}/_control/webhooks/${failingId}/resume`, {
			method: 'POST',
		});
		expect(await json(resumed)).toMatchObject({
			id: failingId,
			paused: false,
			consecutiveFailures: 0,
		});
	});

	it('publishes two artifacts and one audit per strategy after a reoptimization', async () => {
		sandbox.setOptions({ queueDelayMs: 40 });
		const receiver = await startReceiver();
		sandbox.addWebhookEndpoint(receiver.url);
		const response = await call(sandbox.performanceUrl, '/sites/site_1/reoptimize', {
			token: sandbox.tokens.readWrite,
			method: 'POST',
		});
		expect(await json(response)).toEqual({ ok: true, queued: 4 });

		const deliveries = await sandbox.waitForDeliveries((all) => all.length >= 4);
		const events = deliveries.map(
			(d) =>
				JSON.parse(d.body) as {
					type: string;
					data: { artifact: { kind: string }; audit: { id: string; strategy: string } };
				},
		);
		const artifacts = events.filter((e) => e.type === 'artifact.published');
		const audits = events.filter((e) => e.type === 'audit.completed');
		expect(artifacts.map((e) => e.data.artifact.kind).sort()).toEqual([
			'critical_css',
			'unused_css',
		]);
		expect(audits.map((e) => e.data.audit.strategy).sort()).toEqual(['desktop', 'mobile']);
		expect(events.some((e) => e.type === 'audit.regression')).toBe(false);

		const site = await json(
			await call(sandbox.performanceUrl, '/sites/site_1', { token: sandbox.tokens.readOnly }),
		);
		expect((site.audits as Array<{ id: string }>)[0].id).toBe(
			audits[audits.length - 1].data.audit.id,
		);
	});

	it('reports a regression with an alert that opens and later resolves', async () => {
		sandbox.setOptions({ queueDelayMs: 40 });
		const receiver = await startReceiver();
		sandbox.addWebhookEndpoint(receiver.url, {
			events: ['audit.regression', 'alert.opened', 'alert.resolved'],
		});
		await call(sandbox.performanceUrl, '/sites/site_3/reoptimize', {
			token: sandbox.tokens.readWrite,
			method: 'POST',
		});

		const deliveries = await sandbox.waitForDeliveries((all) =>
			all.some((d) => d.type === 'alert.resolved'),
		);
		expect(deliveries.map((d) => d.type)).toEqual([
			'audit.regression',
			'audit.regression',
			'alert.opened',
			'alert.resolved',
		]);
		const site = await json(
			await call(sandbox.performanceUrl, '/sites/site_3', { token: sandbox.tokens.readOnly }),
		);
		expect(site.status).not.toBe('HEALTHY');
	});
});

describe('security service', () => {
	const threatsOf = async (query = ''): Promise<Response> =>
		call(sandbox.securityUrl, `/threats${query}`, { token: sandbox.securityKey });

	it('requires the bearer key and rate-limits per key with Retry-After', async () => {
		sandbox.setOptions({ limits: { securityRequestsPerMinute: 2 } });
		expect((await call(sandbox.securityUrl, '/sites')).status).toBe(401);
		expect((await call(sandbox.securityUrl, '/sites', { token: 'wrong' })).status).toBe(401);
		expect((await threatsOf()).status).toBe(200);
		expect(rateHeaders(await threatsOf())).toMatchObject({ limit: 2, remaining: 0 });
		const limited = await threatsOf();
		expect(limited.status).toBe(429);
		expect(errorOf(await json(limited)).code).toBe('rate_limited');
		expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
	});

	it('returns lists in each configured shape, including pagination', async () => {
		sandbox.setOptions({ securityListShape: 'bare' });
		const bare = (await (await threatsOf()).json()) as unknown[];
		expect(bare.length).toBeGreaterThanOrEqual(25);

		sandbox.setOptions({ securityListShape: 'wrapped' });
		expect(((await json(await threatsOf())).threats as unknown[]).length).toBe(bare.length);
		sandbox.setOptions({ securityListShape: 'data' });
		expect(((await json(await threatsOf())).data as unknown[]).length).toBe(bare.length);

		sandbox.setOptions({ securityListShape: 'paginated' });
		const first = await threatsOf('?status=open');
		const page1 = await json(first);
		const open = (bare as Array<{ status: string }>).filter((t) => t.status === 'open');
		expect(page1).toMatchObject({ page: 1, totalPages: Math.ceil(open.length / 10) });
		expect(page1.data as unknown[]).toHaveLength(10);
		const next = String(page1.next);
		expect(next).toBe(`${sandbox.securityUrl}/threats?status=open&page=2`);
		expect(first.headers.get('link')).toBe(`<${next}>; rel="next"`);

		let url: string | null = next;
		const seen = [...(page1.data as Array<{ id: string }>)];
		let last: Response | undefined;
		while (url) {
			last = await call(url, '', { token: sandbox.securityKey });
			const page = await json(last);
			seen.push(...(page.data as Array<{ id: string }>));
			url = page.next as string | null;
		}
		expect(seen.map((t) => t.id)).toEqual(open.map((t) => (t as unknown as { id: string }).id));
		expect(last?.headers.get('link')).toBeNull();

		const small = await json(await threatsOf('?per_page=5&page=2&severity=critical'));
		expect(
			(small.data as Array<{ severity: string }>).every((t) => t.severity === 'critical'),
		).toBe(true);
	});

	it('creates sites, triggers scans and resolves threats', async () => {
		const key = sandbox.securityKey;
		const site = await call(sandbox.securityUrl, '/sites', {
			token: key,
			method: 'POST',
			body: { url: 'https://new.example.org', plan: 'agency' },
		});
		expect(site.status).toBe(201);
		const created = await json(site);
		expect(created).toMatchObject({
			url: 'https://new.example.org',
			name: 'new.example.org',
			plan: 'agency',
		});
		expect(
			(await call(sandbox.securityUrl, '/sites', { token: key, method: 'POST', body: {} })).status,
		).toBe(400);

		const scan = await call(sandbox.securityUrl, '/scans/trigger', {
			token: key,
			method: 'POST',
			body: { siteId: created.id },
		});
		expect(scan.status).toBe(202);
		expect(await json(scan)).toMatchObject({ siteId: created.id, status: 'queued' });
		const unknown = await call(sandbox.securityUrl, '/scans/trigger', {
			token: key,
			method: 'POST',
			body: { siteId: 'st_99' },
		});
		expect(unknown.status).toBe(404);

		const threat = sandbox.addThreat({ severity: 'critical' });
		expect(threat.id).toMatch(/^thr_\d+$/);
		const resolve = (): Promise<Response> =>
			call(sandbox.securityUrl, `/threats/${String(threat.id)}/resolve`, {
				token: key,
				method: 'PATCH',
			});
		const resolved = await resolve();
		expect(resolved.status).toBe(200);
		expect(await json(resolved)).toMatchObject({ id: threat.id, status: 'resolved' });
		expect((await resolve()).status).toBe(409);
		expect(
			(await call(sandbox.securityUrl, '/threats/thr_999/resolve', { token: key, method: 'PATCH' }))
				.status,
		).toBe(404);
	});

	it('answers 405 with Allow for a known path and 404 for an unknown one', async () => {
		const token = sandbox.securityKey;
		const refused = await call(sandbox.securityUrl, '/threats/thr_1/resolve', { token });
		expect(refused.status).toBe(405);
		expect(refused.headers.get('allow')).toBe('PATCH');
		expect(errorOf(await json(refused)).code).toBe('method_not_allowed');
		expect((await call(sandbox.securityUrl, '/threats/thr_1', { token })).status).toBe(404);
	});

	it('formats errors in each configured shape', async () => {
		const notFound = (): Promise<Response> =>
			call(sandbox.securityUrl, '/threats/thr_999/resolve', {
				token: sandbox.securityKey,
				method: 'PATCH',
			});
		const message = 'Threat thr_999 was not found';
		const expected = {
			nested: { error: { code: 'not_found', message } },
			flat: { code: 'not_found', message },
			string: { error: message },
			message: { message },
		} as const;
		for (const [shape, body] of Object.entries(expected)) {
			sandbox.setOptions({ securityErrorShape: shape as keyof typeof expected });
			const response = await notFound();
			expect(response.status).toBe(404);
			expect(await response.json()).toEqual(body);
		}
		sandbox.setOptions({ securityErrorShape: 'text' });
		const text = await notFound();
		expect(text.headers.get('content-type')).toMatch(/^text\/plain/);
		expect(await text.text()).toBe(message);
	});
});

describe('fault injection', () => {
	it('injects each kind of fault, limited by times, method and path prefix', async () => {
		const token = sandbox.tokens.readOnly;
		const sites = (): Promise<Response> => call(sandbox.performanceUrl, '/sites', { token });

		sandbox.setFault({ service: 'performance', path: '/sites', kind: 'status500', times: 1 });
		const failed = await sites();
		expect(failed.status).toBe(500);
		expect(errorOf(await json(failed)).code).toBe('internal_error');
		expect((await sites()).status).toBe(200);

		sandbox.setFault({ service: 'security', path: '/threats*', kind: 'status503', times: 1 });
		const unavailable = await call(sandbox.securityUrl, '/threats', { token: sandbox.securityKey });
		expect(unavailable.status).toBe(503);
		expect(errorOf(await json(unavailable)).code).toBe('service_unavailable');

		sandbox.setFault({ service: 'performance', path: '/sites', kind: 'malformedJson', times: 1 });
		const malformed = await sites();
		expect(malformed.status).toBe(200);
		expect(malformed.headers.get('content-type')).toMatch(/^application\/json/);
		await expect(malformed.json()).rejects.toThrow();

		sandbox.setFault({ service: 'performance', path: '/sites', kind: 'nonJson', times: 1 });
		const html = await sites();
		expect(html.status).toBe(200);
		expect(html.headers.get('content-type')).toMatch(/^text\/html/);

		sandbox.setFault({ service: 'performance', path: '/sites', kind: 'drop', times: 1 });
		await expect(sites()).rejects.toThrow();

		sandbox.setFault({
			service: 'performance',
			path: '/sites*',
			method: 'GET',
			kind: 'slow',
			delayMs: 100,
			times: 1,
		});
		const slow = await sites();
		expect(slow.status).toBe(200);
		expect(Array.isArray((await json(slow)).sites)).toBe(true);

		sandbox.setFault({
			service: 'performance',
			method: 'POST',
			path: '/sites*',
			kind: 'status500',
		});
		expect((await sites()).status).toBe(200);
		expect(
			sandbox.requests.filter((r) => r.service === 'performance' && r.path === '/sites'),
		).toHaveLength(7);
	});

	it('takes faults through the control API', async () => {
		const added = await fetch(`${sandbox.origin}/_control/faults`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ service: 'security', path: '/sites', kind: 'status500' }),
		});
		expect(added.status).toBe(201);
		expect((await call(sandbox.securityUrl, '/sites', { token: sandbox.securityKey })).status).toBe(
			500,
		);
		await fetch(`${sandbox.origin}/_control/faults`, { method: 'DELETE' });
		expect((await call(sandbox.securityUrl, '/sites', { token: sandbox.securityKey })).status).toBe(
			200,
		);
	});
});

describe('control API', () => {
	it('registers webhooks, emits events, records chat messages, adds records and resets', async () => {
		const receiver = await startReceiver();
		const post = (path: string, body: unknown): Promise<Response> =>
			fetch(`${sandbox.origin}/_control${path}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
			});

		const { id } = (await json(
			await post('/webhooks', { url: receiver.url, events: ['alert.opened'] }),
		)) as { id: string };
		expect(
			(await post('/emit', { type: 'alert.opened', data: { alert: { id: 'alr_x' } } })).status,
		).toBe(202);
		expect((await post('/emit', { type: 'no.such' })).status).toBe(400);
		await sandbox.waitForDeliveries((all) => all.length === 1);
		const deliveries = (await json(await fetch(`${sandbox.origin}/_control/deliveries`)))
			.deliveries as DeliveryRecord[];
		expect(deliveries[0]).toMatchObject({ endpointId: id, type: 'alert.opened' });
		expect(JSON.parse(deliveries[0].body).data).toEqual({ alert: { id: 'alr_x' } });

		await post('/chat/incoming', { text: 'Site site_3 regressed', channel: '#perf' });
		const messages = (await json(await fetch(`${sandbox.origin}/_control/chat/messages`)))
			.messages as Array<Record<string, unknown>>;
		expect(messages[0].body).toEqual({ text: 'Site site_3 regressed', channel: '#perf' });

		const threat = await json(await post('/security/threats', { severity: 'low', title: 'Added' }));
		expect(threat).toMatchObject({ severity: 'low', title: 'Added', status: 'open' });
		expect((await post('/options', { securityListShape: 'bogus' })).status).toBe(400);
		expect((await json(await post('/options', { latencyMs: 1 }))).options).toMatchObject({
			latencyMs: 1,
		});

		expect((await post('/reset', {})).status).toBe(200);
		const state = await json(await fetch(`${sandbox.origin}/_control/state`));
		expect(state.endpoints).toEqual([]);
		expect(state.counts).toMatchObject({
			deliveries: 0,
			chatMessages: 0,
			requests: 0,
			security_threats: 27,
		});
		expect(state.options).toMatchObject({ latencyMs: 0 });
	});
});

describe('root address', () => {
	it('names both services, the demo credentials and the control routes, all of which work', async () => {
		const root = await fetch(`${sandbox.origin}/`);
		expect(root.status).toBe(200);
		const index = (await root.json()) as {
			performance: { baseUrl: string; tokens: Array<{ name: string; token: string }> };
			security: { baseUrl: string; key: string };
			webhooks: { signingSecret: string };
			control: Record<string, string>;
		};
		expect(index.performance.baseUrl).toBe(sandbox.performanceUrl);
		expect(index.security.baseUrl).toBe(sandbox.securityUrl);
		expect(index.webhooks.signingSecret).toBe(sandbox.signingSecret);
		expect(index.performance.tokens.map(({ name }) => name).sort()).toEqual(
			Object.keys(sandbox.tokens).sort(),
		);

		const readWrite = index.performance.tokens.find(({ name }) => name === 'readWrite');
		const sites = await call(index.performance.baseUrl, '/sites', { token: readWrite?.token });
		expect(sites.status).toBe(200);
		const threats = await call(index.security.baseUrl, '/threats', { token: index.security.key });
		expect(threats.status).toBe(200);

		expect(Object.keys(index.control)).toEqual(
			expect.arrayContaining([
				'GET /_control/state',
				'POST /_control/emit',
				'POST /_control/reset',
			]),
		);
		const reads = Object.keys(index.control).filter((route) =>
			/^GET \/_control[a-z/]*$/.test(route),
		);
		expect(reads.length).toBeGreaterThan(5);
		for (const route of reads) {
			const answer = await fetch(sandbox.origin + route.slice('GET '.length));
			expect(answer.status, route).toBe(200);
		}
	});
});
