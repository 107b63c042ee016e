import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { NodeApiError } from 'n8n-workflow';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { locator, runSecurityNode, SECURITY_NODE_NAME } from '../harness/securityWorkflow.ts';
import { startSandbox, type Sandbox, type SecurityErrorShape } from '../sandbox/index.ts';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ quiet: true });
});
afterAll(async () => await sandbox.close());
beforeEach(() => sandbox.reset());

function run(
	parameters: Parameters<typeof runSecurityNode>[0],
	options: { items?: object[]; baseUrl?: string; apiKey?: string; continueOnFail?: boolean } = {},
) {
	return runSecurityNode(parameters, {
		baseUrl: options.baseUrl ?? sandbox.securityUrl,
		apiKey: options.apiKey ?? sandbox.securityKey,
		items: options.items as never,
		continueOnFail: options.continueOnFail,
	});
}

function securityRequests() {
	return sandbox.requests.filter((request) => request.service === 'security');
}

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
		const result = await run(createWithBadUrl);

		const error = result.nodeError(SECURITY_NODE_NAME);
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe(
			`The Security Service refused the request [${code}, HTTP 400]: url must be an absolute http(s) URL`,
		);
		expect((error as NodeApiError).httpCode).toBe('400');
	});

	it.each<[SecurityErrorShape, string]>([
		['nested', 'unauthorized'],
		['text', 'auth_invalid'],
	])('%s: a wrong key is named as such', async (shape, code) => {
		sandbox.setOptions({ securityErrorShape: shape });
		const result = await run({ resource: 'site', operation: 'getAll', returnAll: true }, { apiKey: 'sec_wrong' });

		const error = result.nodeError(SECURITY_NODE_NAME) as NodeApiError;
		expect(error.message).toBe(`The Security Service rejected the API key [${code}]: Invalid API key`);
		expect(error.description).toContain('Check the API key in the "Security Service API" credential');
		expect(error.httpCode).toBe('401');
	});

	it('a 5xx names the status and says nothing was retried', async () => {
		sandbox.setFault({ service: 'security', path: '/threats', kind: 'status500', times: 1 });
		const result = await run({ resource: 'threat', operation: 'getAll', returnAll: true });

		const error = result.nodeError(SECURITY_NODE_NAME) as NodeApiError;
		expect(error.message).toBe('The Security Service failed [internal_error, HTTP 500]: Internal server error (injected fault)');
		expect(error.description).toContain('not retried');
		expect(securityRequests()).toHaveLength(1);
	});

	it('an HTML page instead of JSON points at the base URL', async () => {
		sandbox.setFault({ service: 'security', path: '/reports', kind: 'nonJson', times: 1 });
		const result = await run({ resource: 'report', operation: 'getAll', returnAll: true });

		const error = result.nodeError(SECURITY_NODE_NAME) as NodeApiError;
		expect(error.message).toContain('with a body that is not valid JSON (text/html');
		expect(error.description).toContain('base URL');
	});

	it('an unreachable host is named, with the fix', async () => {
		const result = await run({ resource: 'site', operation: 'getAll', returnAll: true }, { baseUrl: 'http://127.0.0.1:1/v1' });

		const error = result.nodeError(SECURITY_NODE_NAME) as NodeApiError;
		expect(error.message).toBe('http://127.0.0.1:1 refused the connection [ECONNREFUSED]');
		expect(error.description).toContain('Check the base URL in the "Security Service API" credential');
	});

	it('with Continue On Fail, the failed item carries the error, paired to its input', async () => {
		const result = await run(
			{ resource: 'threat', operation: 'resolve', threatId: locator('={{ $json.threat }}', 'id') },
			{ items: [{ threat: 'thr_1' }, { threat: 'thr_999' }], continueOnFail: true },
		);

		expect(result.run.status).toBe('success');
		const output = result.output(SECURITY_NODE_NAME);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(output[0].json).toMatchObject({ id: 'thr_1', status: 'resolved' });
		expect(output[1].json).toEqual({
			error: 'The threat "thr_999" was not found [not_found]',
			errorDescription: expect.stringContaining('Check the ID'),
		});
	});
});

describe('Security Service errors: rate limit (429)', () => {
	it('waits for a near reset and retries', async () => {
		// 2 requests per service minute, a service minute lasting one real second.
		sandbox.setOptions({ limits: { securityRequestsPerMinute: 2 }, timeScale: 60 });
		const result = await run({ resource: 'site', operation: 'getAll', returnAll: true }, { items: [{}, {}, {}] });

		expect(result.run.status).toBe('success');
		expect(result.output(SECURITY_NODE_NAME)).toHaveLength(9);
		// The third request was refused once, then repeated after the reset.
		expect(securityRequests()).toHaveLength(4);
	});

	it('fails at once, saying when and why, when the reset is far away', async () => {
		// 1 request per service minute, a service minute lasting two real minutes.
		sandbox.setOptions({ limits: { securityRequestsPerMinute: 1 }, timeScale: 0.5 });
		const result = await run({ resource: 'site', operation: 'getAll', returnAll: true }, { items: [{}, {}] });

		const error = result.nodeError(SECURITY_NODE_NAME) as NodeApiError;
		expect(error.httpCode).toBe('429');
		expect(error.message).toMatch(/^Rate limit reached \[rate_limited\]: Rate limit of 1 requests per minute reached/);
		expect(error.description).toContain('too long to wait for');
		expect(error.description).toContain('100 requests per minute on the Standard plan');
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

		it('retries a near reset a bounded number of times, then fails saying so', async () => {
			headers = { 'retry-after': '0' };
			const result = await run({ resource: 'report', operation: 'getAll', returnAll: true }, { baseUrl });

			const error = result.nodeError(SECURITY_NODE_NAME) as NodeApiError;
			expect(error.message).toMatch(/^Rate limit reached \[rate_limited\]: Too many requests/);
			expect(error.description).toContain('waited for the reset 3 time(s)');
			expect(hits).toBe(4);
		});

		it('fails at once when the service does not say when the limit resets', async () => {
			headers = {};
			const result = await run({ resource: 'report', operation: 'getAll', returnAll: true }, { baseUrl });

			const error = result.nodeError(SECURITY_NODE_NAME) as NodeApiError;
			expect(error.httpCode).toBe('429');
			expect(error.description).toContain('did not say when the limit resets');
			expect(hits).toBe(1);
		});
	});
});
