import fc from 'fast-check';
import type { INodeParameters } from 'n8n-workflow';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { propertyRuns } from '../support/harness/propertyRuns.mts';
import { reasonOf, runNode, type NodeRun } from '../support/harness/runNode.mts';
import {
	startScriptedService,
	type ScriptedAnswer,
	type ScriptedRequest,
	type ScriptedService,
} from '../support/harness/scriptedService.mts';

/**
 * Redirects through n8n-core over real HTTP: the service (one origin) answers as each test
 * scripts it, and another origin stands for wherever a redirect points. n8n itself never follows
 * a redirect; the node follows one only for a read, on the credential's origin below its base URL.
 */

const TOKEN = 'pst_redirect_token';
const KEY = 'sec_redirect_key';

let service: ScriptedService;
let other: ScriptedService;
let answer: (request: ScriptedRequest) => ScriptedAnswer;

const list = (request: ScriptedRequest): ScriptedAnswer => ({
	body: { sites: [{ id: 'site_1', url: request.url }], threats: [{ id: 'threat_1' }] },
});

beforeAll(async () => {
	service = await startScriptedService((request) => answer(request));
	other = await startScriptedService(list);
});
afterAll(async () => {
	await service.close();
	await other.close();
});
beforeEach(() => {
	service.requests.length = 0;
	other.requests.length = 0;
});

const baseUrl = () => `${service.origin}/v1`;
const performance = (parameters: INodeParameters) =>
	runNode('performanceService', parameters, {
		credentials: { baseUrl: baseUrl(), apiToken: TOKEN },
	});
const security = (parameters: INodeParameters) =>
	runNode('securityService', parameters, {
		credentials: { baseUrl: baseUrl(), apiKey: KEY, plan: 'agency' },
	});

const getManySites = { resource: 'site', operation: 'getAll', returnAll: false, limit: 5 };
const getManyThreats = { resource: 'threat', operation: 'getAll', returnAll: false, limit: 5 };
const createSite = { resource: 'site', operation: 'create', url: 'https://shop.example' };
const reoptimize = {
	resource: 'site',
	operation: 'reoptimize',
	siteId: { __rl: true, mode: 'id', value: 'site_1' },
};

/** Every request answered with a redirect to `location`, except those `at` a path it leads to. */
function redirectTo(status: number, location: string | undefined): void {
	answer = (request) => {
		if (request.method === 'GET' && request.url.startsWith('/v1/moved')) return list(request);
		return { status, headers: location === undefined ? {} : { location } };
	};
}

function expectRefused(run: NodeRun, status: number, shown: string): void {
	expect(run.error?.name).toBe('NodeApiError');
	expect(reasonOf(run.error)).toBe('redirect');
	expect(run.error?.message).toContain(`HTTP ${status}`);
	expect(run.error?.message).toContain(shown);
	expect(run.error?.description).toContain(`base URL of the`);
	expect(run.items).toEqual([]);
}

describe('a redirect to another origin is refused: the key goes nowhere else', () => {
	for (const status of [301, 302, 303, 307, 308]) {
		it(`${status}: Get many sites (token), Get many threats (key), Reoptimize`, async () => {
			redirectTo(status, `${other.origin}/steal`);
			const runs = [
				await performance(getManySites),
				await security(getManyThreats),
				await performance(reoptimize),
			];

			expect(other.requests.map((request) => request.headers.authorization)).toEqual([]);
			for (const run of runs) expectRefused(run, status, other.origin);
			expect(service.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
				'GET /v1/sites',
				'GET /v1/threats',
				'POST /v1/sites/site_1/reoptimize',
			]);
		});
	}
});

describe('a redirect of a POST is an error, never a success, even on the same origin', () => {
	it('Create site: 301 to https (the service moved) names the https host and the fix', async () => {
		const https = `https://${new URL(service.origin).host}/v1/sites`;
		redirectTo(301, https);
		const run = await security(createSite);

		expectRefused(run, 301, `https://${new URL(service.origin).host}`);
		expect(run.error?.description).toMatch(/set the base URL/i);
		expect(service.requests.map((request) => request.method)).toEqual(['POST']);
	});

	it('Create site: 301 to the same origin is not turned into a GET of the site list', async () => {
		redirectTo(301, `${baseUrl()}/moved/sites`);
		const run = await security(createSite);

		expectRefused(run, 301, `${baseUrl()}/moved/sites`);
		expect(service.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
			'POST /v1/sites',
		]);
	});
});

describe('a redirect of a read on the credential origin below the base URL is followed', () => {
	it('Get many sites: 308 to a relative Location, sent with the token to the same origin', async () => {
		redirectTo(308, 'moved/sites?page=1');
		const run = await performance(getManySites);

		expect(run.error).toBeUndefined();
		expect(run.json.map((json) => json.id)).toEqual(['site_1']);
		expect(service.requests.map((request) => [request.url, request.headers.authorization])).toEqual(
			[
				['/v1/sites', `Bearer ${TOKEN}`],
				['/v1/moved/sites?page=1', `Bearer ${TOKEN}`],
			],
		);
	});

	it('a loop ends with an error after a bounded number of hops', async () => {
		answer = (request) => ({
			status: 302,
			headers: { location: request.url === '/v1/sites' ? '/v1/a' : '/v1/sites' },
		});
		const run = await performance(getManySites);

		expect(reasonOf(run.error)).toBe('redirect');
		expect(run.error?.description).toMatch(/loop|more than/);
		expect(service.requests.length).toBeLessThanOrEqual(6);
	});

	it('a 3xx without Location, and a 304, are errors, not an empty success', async () => {
		for (const status of [302, 304, 300]) {
			service.requests.length = 0;
			redirectTo(status, undefined);
			const run = await performance(getManySites);

			expect(reasonOf(run.error)).toBe('redirect');
			expect(run.error?.message).toContain(`HTTP ${status}`);
			expect(service.requests).toHaveLength(1);
		}
	});
});

describe('property: any status, any Location', () => {
	const operations = [
		{ run: performance, parameters: getManySites, method: 'GET', secret: TOKEN },
		{ run: security, parameters: getManyThreats, method: 'GET', secret: KEY },
		{ run: security, parameters: createSite, method: 'POST', secret: KEY },
		{ run: performance, parameters: reoptimize, method: 'POST', secret: TOKEN },
	];
	/** Where a Location may point; `other` and `service` are filled in when the services run. */
	const location = fc.constantFrom(
		(o: string) => `${o}/steal`,
		(o: string) => `//${new URL(o).host}/v1/sites`,
		(_o: string, s: string) => `${s}/v1/moved/sites`,
		(_o: string, s: string) => `${s}/v1/sites`,
		(_o: string, s: string) => `${s.replace('http:', 'https:')}/v1/sites`,
		(_o: string, s: string) => `${s}/v2/sites`,
		(_o: string, s: string) => `http://user:pass@${new URL(s).host}/v1/sites`,
		() => 'moved/sites?page=2',
		() => '/v1/%2e%2e/admin',
		() => 'http://[::1',
		() => '',
		() => undefined,
	);
	const status = fc.oneof(
		fc.integer({ min: 300, max: 308 }),
		fc.constantFrom(200, 201, 204, 400, 404, 500),
	);
	const script = fc.array(fc.record({ status, location }), { minLength: 1, maxLength: 7 });

	it('the key reaches no other origin, a 3xx is never a success, every failure is a clear node error', async () => {
		await fc.assert(
			fc.asyncProperty(fc.nat(operations.length - 1), script, async (which, steps) => {
				const operation = operations[which];
				service.requests.length = 0;
				other.requests.length = 0;
				let step = 0;
				const served: number[] = [];
				answer = () => {
					const next = steps[step++] ?? { status: 200, location: () => undefined };
					served.push(next.status);
					const where = next.location(other.origin, service.origin);
					const headers: Record<string, string> = where === undefined ? {} : { location: where };
					return {
						status: next.status,
						headers,
						body:
							next.status === 204
								? undefined
								: { sites: [], threats: [], id: 'x', ok: true, queued: 1 },
					};
				};
				const run = await operation.run(operation.parameters);

				expect(other.requests).toEqual([]);
				for (const request of service.requests)
					expect(request.headers.authorization).toBe(`Bearer ${operation.secret}`);
				// A POST is sent once; only a read follows a redirect, at most 5 in a row.
				if (operation.method === 'POST') expect(service.requests).toHaveLength(1);
				expect(service.requests.length).toBeLessThanOrEqual(6);
				expect(service.requests.every((r, i) => i === 0 || r.method === 'GET')).toBe(true);
				if (run.error) {
					expect(['NodeApiError', 'NodeOperationError']).toContain(run.error.name);
					// The cause and the fix in the package's words (not a bare RangeError or TypeError).
					expect(run.error.description).toMatch(/\w/);
				} else {
					const last = served[served.length - 1];
					expect(last >= 200 && last < 300).toBe(true);
				}
			}),
			propertyRuns(60),
		);
	});
});
