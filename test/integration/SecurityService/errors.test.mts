import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { byId, reasonOf } from '../../support/harness/runNode.mts';
import type { SecurityErrorShape } from '../../support/sandbox/index.mts';
import { securitySandbox } from './securityNode.mts';

// The wording of each message is asserted in messages.test.ts; here: reason codes and what happened.
const { sandbox, run, securityRequests } = securitySandbox();

const createWithBadUrl = { resource: 'site', operation: 'create', url: 'not a url' };

describe('Security Service errors: every envelope', () => {
	it.each<[SecurityErrorShape, string]>([
		['nested', 'invalid_request'],
		['flat', 'invalid_request'],
		['string', 'bad_request'],
		['message', 'bad_request'],
		['text', 'bad_request'],
	])('%s: a NodeApiError naming the code and the message', async (shape, code) => {
		sandbox.setOptions({ securityErrorShape: shape });
		const { error } = await run(createWithBadUrl);
		sandbox.setOptions({ securityErrorShape: 'nested' });
		const nested = (await run(createWithBadUrl)).error;

		expect(error?.name).toBe('NodeApiError');
		expect(reasonOf(error)).toBe(code);
		// Every envelope gives the message of the default one (see messages.test.ts) with the code it carries.
		expect(error?.message).toBe(nested?.message.replace('invalid_request', code));
		expect(error?.httpCode).toBe('400');
	});

	it.each<[SecurityErrorShape, string]>([
		['nested', 'unauthorized'],
		['text', 'auth_invalid'],
	])('%s: a wrong key is named as such', async (shape, code) => {
		sandbox.setOptions({ securityErrorShape: shape });
		const { error } = await run(
			{ resource: 'site', operation: 'getAll', returnAll: true },
			{ credentials: { apiKey: 'sec_wrong' } },
		);

		expect(reasonOf(error)).toBe(code);
		expect(error?.message).toMatch(/: Invalid API key$/);
		expect(error?.description).toContain('"Security Service API" credential');
		expect(error?.httpCode).toBe('401');
	});

	it('a 5xx is not retried', async () => {
		sandbox.setFault({ service: 'security', path: '/threats', kind: 'status500', times: 1 });
		const { error } = await run({ resource: 'threat', operation: 'getAll', returnAll: true });

		expect(reasonOf(error)).toBe('internal_error');
		expect(error?.httpCode).toBe('500');
		expect(securityRequests()).toHaveLength(1);
	});

	it('an HTML page instead of JSON', async () => {
		sandbox.setFault({ service: 'security', path: '/reports', kind: 'nonJson', times: 1 });
		const { error } = await run({ resource: 'report', operation: 'getAll', returnAll: true });

		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toContain('(text/html');
		expect(securityRequests()).toHaveLength(1);
	});

	it('an unreachable host is named, with the credential to fix', async () => {
		const { error } = await run(
			{ resource: 'site', operation: 'getAll', returnAll: true },
			{ credentials: { baseUrl: 'http://127.0.0.1:1/v1' } },
		);

		expect(reasonOf(error)).toBe('ECONNREFUSED');
		expect(error?.message).toContain('http://127.0.0.1:1');
		expect(error?.description).toContain('"Security Service API" credential');
	});

	it('with Continue On Fail, the failed item carries the error, paired to its input', async () => {
		const stopped = (
			await run({ resource: 'threat', operation: 'resolve', threatId: byId('thr_999') })
		).error;
		const result = await run(
			{ resource: 'threat', operation: 'resolve', threatId: byId('={{ $json.threat }}') },
			{ items: [{ threat: 'thr_1' }, { threat: 'thr_999' }], continueOnFail: true },
		);

		expect(result.status).toBe('success');
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(result.json[0]).toMatchObject({ id: 'thr_1', status: 'resolved' });
		expect(reasonOf(stopped)).toBe('not_found');
		expect(result.json[1]).toEqual({
			error: stopped?.message,
			message: stopped?.description,
		});
	});
});

describe('Security Service errors: rate limit (429)', () => {
	it('waits for a near reset and retries', async () => {
		// 2 requests per service minute, a service minute lasting one real second.
		// Like the real service: no X-RateLimit-* headers, so the node learns of the limit from the 429.
		sandbox.setOptions({
			limits: { securityRequestsPerMinute: 2 },
			timeScale: 60,
			securityRateLimitHeaders: false,
		});
		const result = await run(
			{ resource: 'site', operation: 'getAll', returnAll: true },
			{ items: [{}, {}, {}] },
		);

		expect(result.status).toBe('success');
		expect(result.items).toHaveLength(9);
		// The third request was refused once, then repeated after the reset.
		expect(securityRequests()).toHaveLength(4);
	});

	it('fails at once when the reset is far away', async () => {
		// 1 request per service minute, a service minute lasting two real minutes.
		sandbox.setOptions({
			limits: { securityRequestsPerMinute: 1 },
			timeScale: 0.5,
			securityRateLimitHeaders: false,
		});
		const { error } = await run(
			{ resource: 'site', operation: 'getAll', returnAll: true },
			{ items: [{}, {}] },
		);

		expect(error?.httpCode).toBe('429');
		expect(reasonOf(error)).toBe('rate_limited');
		expect(error?.message).toContain(': Rate limit of 1 requests per minute reached');
		expect(securityRequests()).toHaveLength(2);
	});

	describe('against a service that always answers 429', () => {
		let server: Server;
		let baseUrl: string;
		let headers: Record<string, string> = {};
		let hits = 0;

		beforeAll(async () => {
			server = createServer((_request, response) => {
				hits += 1;
				response.writeHead(429, { 'content-type': 'text/plain', ...headers });
				response.end('Too many requests');
			});
			await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
			baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
		});
		afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
		beforeEach(() => {
			hits = 0;
		});

		it('retries a near reset a bounded number of times, then fails', async () => {
			headers = { 'retry-after': '0' };
			const { error } = await run(
				{ resource: 'report', operation: 'getAll', returnAll: true },
				{ credentials: { baseUrl } },
			);

			expect(reasonOf(error)).toBe('rate_limited');
			expect(error?.message).toContain(': Too many requests');
			expect(hits).toBe(4);
		});

		it('fails at once when the service does not say when the limit resets', async () => {
			headers = {};
			const { error } = await run(
				{ resource: 'report', operation: 'getAll', returnAll: true },
				{ credentials: { baseUrl } },
			);

			expect(error?.httpCode).toBe('429');
			expect(reasonOf(error)).toBe('rate_limited');
			expect(hits).toBe(1);
		});
	});
});
