import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { INodeParameters } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { byId, runNode, type NodeError, type RunNodeOptions } from '../support/harness/runNode.mts';
import { closedPort, withSandbox } from '../support/harness/sandbox.mts';

/**
 * The full wording of every message the action nodes fail with, each asserted here and only
 * here: the other tests assert the reason code (`reasonOf`) and what happened.
 */
const sandbox = withSandbox();

const performance = (parameters: INodeParameters, options: RunNodeOptions = {}) =>
	runNode('performanceService', parameters, { sandbox, ...options });

/** The error a node stops with; fails the test when it does not stop. */
async function failure(
	type: string,
	parameters: INodeParameters,
	options: RunNodeOptions = {},
): Promise<NodeError> {
	const { error } = await runNode(type, parameters, { sandbox, ...options });
	if (!error) throw new Error(`${type} did not fail`);
	return error;
}
const performanceError = (parameters: INodeParameters, options?: RunNodeOptions) =>
	failure('performanceService', parameters, options);
const securityError = (parameters: INodeParameters, options?: RunNodeOptions) =>
	failure('securityService', parameters, options);

const health = { resource: 'system', operation: 'getHealth' };
const getSite = (id: string) => ({ resource: 'site', operation: 'get', siteId: byId(id) });
const reoptimize = (id: string) => ({
	resource: 'site',
	operation: 'reoptimize',
	siteId: byId(id),
});

describe('Performance Service: what the service refused', () => {
	it('a rejected token', async () => {
		const error = await performanceError(
			{ resource: 'site', operation: 'getAll' },
			{ credentials: { apiToken: 'perf_revoked' } },
		);
		expect(error.message).toBe(
			'The Performance Service rejected the token [auth_invalid]: The bearer token is not valid',
		);
		expect(error.description).toMatch(
			/Check the token in the "Performance Service API" credential/,
		);
	});

	it('a missing scope names it', async () => {
		const error = await performanceError(reoptimize('site_1'), {
			credentials: { apiToken: sandbox.tokens.readOnly },
		});
		expect(error.message).toBe(
			'The token lacks permission (audits:write) [insufficient_scope]: This operation requires the scope audits:write',
		);
		expect(error.description).toMatch(/The token needs the scope "audits:write"/);
	});

	it('an unknown site names its ID', async () => {
		for (const parameters of [getSite('site_999'), reoptimize('site_999')]) {
			const error = await performanceError(parameters);
			expect(error.message).toBe('The site "site_999" was not found [not_found]');
			expect(error.description).toMatch(/Check the ID, or pick it from the list/);
		}
	});

	it('a base URL without the version segment', async () => {
		const error = await performanceError(health, {
			credentials: { baseUrl: `${sandbox.origin}/performance` },
		});
		expect(error.message).toMatch(/^Nothing exists at \/performance\/system \[not_found\]/);
		expect(error.description).toMatch(/Check the base URL .* version segment/);
	});
});

describe('Performance Service: input refused before any request', () => {
	it('an empty or unsafe site ID from an expression', async () => {
		const empty = await performanceError(getSite('={{ $json.site }}'), { items: [{ site: ' ' }] });
		expect(empty.message).toBe('The site ID is empty');
		expect(empty.description).toMatch(/Pick a site from the list/);
		const unsafe = await performanceError(getSite('={{ $json.site }}'), {
			items: [{ site: '../site_1' }],
		});
		expect(unsafe.message).toBe('The site ID "../site_1" is not a valid ID');
		expect(unsafe.description).toMatch(/cannot contain/);
	});

	it('a fixed unsafe ID, flagged by the "By ID" validation before the workflow runs', async () => {
		await expect(performance(reoptimize('../site_1'))).rejects.toThrow(
			/A site ID cannot contain "\/", "\\" or "\.\."/,
		);
	});

	it('a limit out of range from an expression', async () => {
		const audits = await performanceError({
			resource: 'audit',
			operation: 'getAll',
			limit: '={{ 500 }}',
		});
		expect(audits.message).toBe('The limit must be a whole number from 1 to 100, not 500');
		const sites = await performanceError({
			resource: 'site',
			operation: 'getAll',
			limit: '={{ 0 }}',
		});
		expect(sites.message).toBe('The limit must be a whole number of at least 1, not 0');
	});
});

describe('Performance Service: transport faults', () => {
	it('a dropped connection', async () => {
		sandbox.setFault({ service: 'performance', path: '/system', kind: 'drop' });
		const error = await performanceError(health);
		expect(error.message).toBe(
			`The connection to ${sandbox.origin} was dropped before the Performance Service answered [ECONNRESET]`,
		);
		expect(error.description).toMatch(/not retried automatically/);
	});

	it('a 500 on Reoptimize', async () => {
		sandbox.setFault({
			service: 'performance',
			path: '/sites/site_1/reoptimize',
			kind: 'status500',
		});
		const error = await performanceError(reoptimize('site_1'));
		expect(error.message).toBe(
			'The Performance Service failed [internal_error, HTTP 500]: Internal server error (injected fault)',
		);
		expect(error.description).toMatch(
			/not retried automatically, because the service may already have carried it out/,
		);
	});

	it('a 503', async () => {
		sandbox.setFault({ service: 'performance', path: '/sites', kind: 'status503' });
		const error = await performanceError({ resource: 'site', operation: 'getAll' });
		expect(error.message).toBe(
			'The Performance Service failed [service_unavailable, HTTP 503]: Service unavailable (injected fault)',
		);
	});

	it('malformed JSON', async () => {
		sandbox.setFault({ service: 'performance', path: '/sites', kind: 'malformedJson' });
		const error = await performanceError({ resource: 'site', operation: 'getAll' });
		expect(error.message).toBe(
			'The Performance Service answered GET /performance/v1/sites with a body that is not valid JSON (application/json; charset=utf-8) [not_json, HTTP 200]',
		);
		expect(error.description).toMatch(/points at the API/);
	});

	it('an unreachable host', async () => {
		const port = await closedPort();
		const error = await performanceError(health, {
			credentials: { baseUrl: `http://127.0.0.1:${port}/v1` },
		});
		// NodeApiError would swap a message naming a Node.js error code for a generic one.
		expect(error.name).toBe('NodeApiError');
		expect(error.message).toBe(`http://127.0.0.1:${port} refused the connection [ECONNREFUSED]`);
		expect(error.description).toMatch(
			/Check the base URL in the "Performance Service API" credential/,
		);
		expect(error.httpCode).toBe('ECONNREFUSED');
		expect(error.context?.itemIndex).toBe(0);
	});
});

describe('Performance Service: rate limits', () => {
	it('a near reset still reached after the retries', async () => {
		sandbox.setOptions({
			timeScale: 60,
			resetFormat: 'epochMillis',
			limits: { requestsPerMinute: 0 },
		});
		const error = await performanceError(health);
		expect(error.message).toMatch(
			/^Rate limit reached \[rate_limited\]: Request limit of 0 per minute for this token reached \(resets at \S+\)$/,
		);
		expect(error.description).toMatch(/waited for the reset 3 time\(s\) and retried/);
	});

	it('a far reset (the per-site reoptimization hour)', async () => {
		sandbox.setOptions({ timeScale: 30, limits: { reoptimizationsPerHour: 1 } });
		const error = await performanceError(reoptimize('site_3'), { items: [{ n: 1 }, { n: 2 }] });
		expect(error.message).toMatch(
			/^Rate limit reached \[rate_limited\]: Reoptimization limit of 1 per hour for site site_3 reached \(resets at \S+\)$/,
		);
		expect(error.description).toMatch(/The limit resets at \S+ \(in \d+ s\)/);
		expect(error.description).toMatch(/too long to wait for, so the node did not retry/);
		expect(error.description).toMatch(/20 reoptimizations per hour for each site/);
	});

	it("a request the credential's pace holds back: the window frees later than the node waits", async () => {
		// Half speed: the token's minute lasts two real minutes; two requests spend it. The pace
		// starts from nothing, as in a fresh n8n process (withSandbox forgets every pacer).
		sandbox.setOptions({ timeScale: 0.5, limits: { requestsPerMinute: 2 } });
		const error = await performanceError(health, { items: [{ n: 1 }, { n: 2 }, { n: 3 }] });
		expect(error.message).toMatch(
			/^Rate limit reached \[rate_limited\]: the Performance Service limit of this credential is used up \(resets at \S+\)$/,
		);
		expect(error.description).toMatch(
			/^The limit resets at \S+ \(in \d+ s\)\. That is more than 65 s away, too long to wait for, so the node did not send the request\. Limits that apply here: 1000 requests per minute for each token\. Run the workflow less often, or spread the items over time\.$/,
		);
	});
});

describe('Security Service', () => {
	const createWithBadUrl = { resource: 'site', operation: 'create', url: 'not a url' };

	it('a refused request', async () => {
		const error = await securityError(createWithBadUrl);
		expect(error.message).toBe(
			'The Security Service refused the request [invalid_request, HTTP 400]: url must be an absolute http(s) URL',
		);
	});

	it('a rejected key', async () => {
		const error = await securityError(
			{ resource: 'site', operation: 'getAll', returnAll: true },
			{ credentials: { apiKey: 'sec_wrong' } },
		);
		expect(error.message).toBe(
			'The Security Service rejected the API key [unauthorized]: Invalid API key',
		);
		expect(error.description).toContain(
			'Check the API key in the "Security Service API" credential',
		);
	});

	it('an unknown site or threat names its ID', async () => {
		const site = await securityError({
			resource: 'scan',
			operation: 'trigger',
			siteId: byId('st_99'),
		});
		expect(site.message).toBe('The site "st_99" was not found [not_found]');
		const threat = await securityError({
			resource: 'threat',
			operation: 'resolve',
			threatId: byId('thr_999'),
		});
		expect(threat.message).toBe('The threat "thr_999" was not found [not_found]');
		expect(threat.description).toContain('Check the ID');
	});

	it('a conflicting change', async () => {
		const error = await securityError({
			resource: 'threat',
			operation: 'resolve',
			threatId: byId('thr_4'),
		});
		expect(error.message).toBe(
			'The Security Service refused a conflicting change [conflict]: Threat thr_4 is already resolved',
		);
	});

	it('input refused before any request', async () => {
		const fields = await securityError({
			resource: 'site',
			operation: 'create',
			url: 'https://a.example',
			additionalFields: '[1]',
		});
		expect(fields.message).toBe('Additional Fields (JSON) must be a JSON object');
		const id = await securityError({
			resource: 'threat',
			operation: 'resolve',
			threatId: byId('../sites'),
		});
		expect(id.message).toBe('The threat ID "../sites" is not a valid ID');
	});

	it('a 5xx says nothing was retried', async () => {
		sandbox.setFault({ service: 'security', path: '/threats', kind: 'status500', times: 1 });
		const error = await securityError({ resource: 'threat', operation: 'getAll', returnAll: true });
		expect(error.message).toBe(
			'The Security Service failed [internal_error, HTTP 500]: Internal server error (injected fault)',
		);
		expect(error.description).toContain('not retried');
	});

	it('an HTML page instead of JSON points at the base URL', async () => {
		sandbox.setFault({ service: 'security', path: '/reports', kind: 'nonJson', times: 1 });
		const error = await securityError({ resource: 'report', operation: 'getAll', returnAll: true });
		expect(error.message).toMatch(
			/^The Security Service answered GET \/security\/v1\/reports with a body that is not valid JSON \(text\/html/,
		);
		expect(error.description).toContain('base URL');
	});

	it('a far rate-limit reset names the plan limit', async () => {
		sandbox.setOptions({
			limits: { securityRequestsPerMinute: 1 },
			timeScale: 0.5,
			securityRateLimitHeaders: false,
		});
		const error = await securityError(
			{ resource: 'site', operation: 'getAll', returnAll: true },
			{ items: [{}, {}] },
		);
		expect(error.message).toMatch(
			/^Rate limit reached \[rate_limited\]: Rate limit of 1 requests per minute reached/,
		);
		expect(error.description).toContain('too long to wait for');
		expect(error.description).toContain('100 requests per minute on the Standard plan');
	});

	describe('against a service that always answers 429', () => {
		let server: Server;
		let baseUrl: string;
		let headers: Record<string, string> = {};

		beforeAll(async () => {
			server = createServer((_request, response) => {
				response.writeHead(429, { 'content-type': 'text/plain', ...headers });
				response.end('Too many requests');
			});
			await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
			baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
		});
		afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

		it('a near reset still reached after the retries', async () => {
			headers = { 'retry-after': '0' };
			const error = await securityError(
				{ resource: 'report', operation: 'getAll', returnAll: true },
				{ credentials: { baseUrl } },
			);
			expect(error.message).toMatch(/^Rate limit reached \[rate_limited\]: Too many requests/);
			expect(error.description).toContain('waited for the reset 3 time(s)');
		});

		it('no reset time', async () => {
			headers = {};
			const error = await securityError(
				{ resource: 'report', operation: 'getAll', returnAll: true },
				{ credentials: { baseUrl } },
			);
			expect(error.description).toContain('did not say when the limit resets');
		});
	});
});

describe('values of an unexpected type from an expression', () => {
	const create = {
		resource: 'site',
		operation: 'create',
		url: '={{ $json.url }}',
		name: '={{ $json.name }}',
	};

	it('Create site: a name given as a number is sent as its text', async () => {
		const { json, error } = await runNode('securityService', create, {
			sandbox,
			items: [{ url: 'https://number.example', name: 42 }],
		});
		expect(error).toBeUndefined();
		expect(json[0]).toMatchObject({ url: 'https://number.example', name: '42' });
	});

	it('Create site: an item without a URL, or a URL that is not text', async () => {
		const missing = await securityError(create, { items: [{ name: 'Shop' }] });
		expect(missing.name).toBe('NodeOperationError');
		expect(missing.message).toBe('The URL is empty');
		const object = await securityError(create, { items: [{ url: { href: 'x' } }] });
		expect(object.message).toBe('The URL must be text, not an object');
		expect(object.description).toMatch(/check the expression that sets it/);
	});

	it('a Limit given as the text "10" is the number 10; other text is refused by name', async () => {
		const sites = await performance({
			resource: 'site',
			operation: 'getAll',
			limit: '={{ "2" }}',
		});
		expect(sites.error).toBeUndefined();
		expect(sites.json).toHaveLength(2);
		const text = await performanceError({
			resource: 'audit',
			operation: 'getAll',
			limit: '={{ "ten" }}',
		});
		expect(text.message).toBe('The limit must be a whole number from 1 to 100, not "ten"');
	});

	it('an ID that is an object, and Return All that is not true/false', async () => {
		const id = await performanceError(getSite('={{ $json.site }}'), {
			items: [{ site: { id: 1 } }],
		});
		expect(id.message).toBe('The site ID must be text, not an object');
		const returnAll = await securityError(
			{
				resource: 'threat',
				operation: 'getAll',
				returnAll: '={{ $json.all }}',
			},
			{ items: [{ all: 'yes' }] },
		);
		expect(returnAll.message).toBe('Return All must be true or false, not a string');
	});
});
