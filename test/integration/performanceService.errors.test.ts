import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type { Sandbox } from '../sandbox/index.ts';
import {
	byId,
	closedPort,
	performanceCalls,
	runPerformance,
	startPerformanceSandbox,
} from './performanceService.fixtures.ts';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startPerformanceSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const getSite = (id: string) => ({ resource: 'site', operation: 'get', siteId: byId(id) });
const reoptimize = (id: string) => ({ resource: 'site', operation: 'reoptimize', siteId: byId(id) });

describe('service error codes', () => {
	it('auth_invalid: tells to check the token', async () => {
		const { error } = await runPerformance(sandbox, { resource: 'site', operation: 'getAll' }, { token: 'perf_revoked' });

		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe('The Performance Service rejected the token [auth_invalid]: The bearer token is not valid');
		expect(error?.description).toMatch(/Check the token in the "Performance Service API" credential/);
		expect(error?.httpCode).toBe('401');
		expect(performanceCalls(sandbox)).toEqual([
			{ method: 'GET', path: '/sites', query: {}, auth: 'Bearer perf_revoked' },
		]);
	});

	it('a missing scope on Reoptimize: names audits:write', async () => {
		const { error } = await runPerformance(sandbox, reoptimize('site_1'), { token: sandbox.tokens.readOnly });

		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe(
			'The token lacks permission (audits:write) [insufficient_scope]: This operation requires the scope audits:write',
		);
		expect(error?.description).toMatch(/The token needs the scope "audits:write"/);
		expect(performanceCalls(sandbox)).toEqual([
			{ method: 'POST', path: '/sites/site_1/reoptimize', query: {}, auth: `Bearer ${sandbox.tokens.readOnly}` },
		]);
	});

	it('a missing scope on reads: names sites:read or audits:read', async () => {
		const sites = await runPerformance(sandbox, { resource: 'site', operation: 'getAll' }, { token: sandbox.tokens.noScopes });
		expect(sites.error?.message).toMatch(/^The token lacks permission \(sites:read\) \[insufficient_scope\]/);
		const audits = await runPerformance(sandbox, { resource: 'audit', operation: 'getAll' }, { token: sandbox.tokens.sitesWrite });
		expect(audits.error?.message).toMatch(/^The token lacks permission \(audits:read\) \[insufficient_scope\]/);
	});

	it('not_found: names the site ID', async () => {
		for (const parameters of [getSite('site_999'), reoptimize('site_999')]) {
			const { error } = await runPerformance(sandbox, parameters);
			expect(error?.name).toBe('NodeApiError');
			expect(error?.message).toBe('The site "site_999" was not found [not_found]');
			expect(error?.description).toMatch(/Check the ID, or pick it from the list/);
			expect(error?.httpCode).toBe('404');
		}
	});

	it('not_found for a base URL without the version segment points at the base URL', async () => {
		const { error } = await runPerformance(
			sandbox,
			{ resource: 'system', operation: 'getHealth' },
			{ baseUrl: `${sandbox.origin}/performance` },
		);
		expect(error?.message).toMatch(/^Nothing exists at \/performance\/system \[not_found\]/);
		expect(error?.description).toMatch(/Check the base URL .* version segment/);
	});

	it('sends an ID with special characters encoded, as one path segment', async () => {
		const { error } = await runPerformance(sandbox, getSite('site 1?x=#'));
		expect(error?.message).toBe('The site "site 1?x=#" was not found [not_found]');
		expect(performanceCalls(sandbox).map((call) => [call.path, call.query])).toEqual([['/sites/site%201%3Fx%3D%23', {}]]);
	});
});

describe('unsafe site IDs are refused before any request', () => {
	const unsafe = ['', '   ', '..', '../site_1', 'site_1/reoptimize', 'a/b', 'site_1\\x', 'site..1', '/sites'];

	for (const id of unsafe) {
		it(`refuses ${JSON.stringify(id)} coming from an expression`, async () => {
			for (const parameters of [getSite('={{ $json.site }}'), reoptimize('={{ $json.site }}')]) {
				const { error } = await runPerformance(sandbox, parameters, { items: [{ site: id }] });
				expect(error?.name).toBe('NodeOperationError');
				expect(error?.message).toBe(id.trim() === '' ? 'The site ID is empty' : `The site ID "${id}" is not a valid ID`);
				expect(error?.description).toMatch(id.trim() === '' ? /Pick a site from the list/ : /cannot contain/);
			}
			expect(performanceCalls(sandbox)).toEqual([]);
		});
	}

	it('a fixed unsafe ID is flagged by the "By ID" validation before the workflow runs', async () => {
		await expect(runPerformance(sandbox, reoptimize('../site_1'))).rejects.toThrow(
			/A site ID cannot contain "\/", "\\" or "\.\."/,
		);
		expect(performanceCalls(sandbox)).toEqual([]);
	});
});

describe('Continue On Fail', () => {
	const items = [{ site: 'site_1' }, { site: 'site_999' }, { site: '../site_1' }, { site: '' }, { site: 'site_2' }];

	it('puts json.error on each failed item, paired to its input, and runs the others', async () => {
		const result = await runPerformance(sandbox, getSite('={{ $json.site }}'), { items, continueOnFail: true });

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.pairedItem)).toEqual(items.map((_, index) => ({ item: index })));
		expect(result.json[0]).toMatchObject({ id: 'site_1', name: 'Acme Shop' });
		expect(result.json[1]).toEqual({
			error: 'The site "site_999" was not found [not_found]',
			errorDescription: expect.stringMatching(/Check the ID/),
		});
		expect(result.json[2]).toMatchObject({ error: 'The site ID "../site_1" is not a valid ID' });
		expect(result.json[3]).toMatchObject({ error: 'The site ID is empty' });
		expect(result.json[4]).toMatchObject({ id: 'site_2', name: 'Acme Blog' });
		expect(performanceCalls(sandbox).map((call) => call.path)).toEqual([
			'/sites/site_1',
			'/sites/site_999',
			'/sites/site_2',
		]);
	});

	it('pairs a scope refusal with each item of a Reoptimize', async () => {
		const result = await runPerformance(sandbox, reoptimize('={{ $json.site }}'), {
			items: [{ site: 'site_1' }, { site: 'site_2' }],
			continueOnFail: true,
			token: sandbox.tokens.readOnly,
		});
		expect(result.json).toEqual([
			expect.objectContaining({ error: expect.stringMatching(/\(audits:write\) \[insufficient_scope\]/) }),
			expect.objectContaining({ error: expect.stringMatching(/\(audits:write\) \[insufficient_scope\]/) }),
		]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('without it, the node stops at the first failed item and names it', async () => {
		const result = await runPerformance(sandbox, getSite('={{ $json.site }}'), { items });
		expect(result.error?.message).toBe('The site "site_999" was not found [not_found]');
		expect(result.error?.context?.itemIndex).toBe(1);
		expect(performanceCalls(sandbox).map((call) => call.path)).toEqual(['/sites/site_1', '/sites/site_999']);
	});
});

describe('input checks before the request', () => {
	it('refuses an audit limit outside 1-100 from an expression', async () => {
		const { error } = await runPerformance(sandbox, { resource: 'audit', operation: 'getAll', limit: '={{ 500 }}' });
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toBe('The limit must be a whole number from 1 to 100, not 500');
		expect(performanceCalls(sandbox)).toEqual([]);
	});

	it('refuses a site limit below 1 from an expression', async () => {
		const { error } = await runPerformance(sandbox, { resource: 'site', operation: 'getAll', limit: '={{ 0 }}' });
		expect(error?.message).toBe('The limit must be a whole number of at least 1, not 0');
		expect(performanceCalls(sandbox)).toEqual([]);
	});
});

describe('transport faults give clear messages and are not retried', () => {
	it('a dropped connection', async () => {
		sandbox.setFault({ service: 'performance', path: '/system', kind: 'drop' });
		const { error } = await runPerformance(sandbox, { resource: 'system', operation: 'getHealth' });
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe(
			`The connection to ${sandbox.origin} was dropped before the Performance Service answered [ECONNRESET]`,
		);
		expect(error?.description).toMatch(/not retried automatically/);
		expect(performanceCalls(sandbox)).toHaveLength(1);
	});

	it('a 500 on Reoptimize is not retried: the service may have queued the work', async () => {
		sandbox.setFault({ service: 'performance', path: '/sites/site_1/reoptimize', kind: 'status500' });
		const { error } = await runPerformance(sandbox, reoptimize('site_1'));
		expect(error?.message).toBe(
			'The Performance Service failed [internal_error, HTTP 500]: Internal server error (injected fault)',
		);
		expect(error?.description).toMatch(/not retried automatically, because the service may already have carried it out/);
		expect(performanceCalls(sandbox).map((call) => call.method)).toEqual(['POST']);
	});

	it('a 503', async () => {
		sandbox.setFault({ service: 'performance', path: '/sites', kind: 'status503' });
		const { error } = await runPerformance(sandbox, { resource: 'site', operation: 'getAll' });
		expect(error?.message).toBe(
			'The Performance Service failed [service_unavailable, HTTP 503]: Service unavailable (injected fault)',
		);
		expect(performanceCalls(sandbox)).toHaveLength(1);
	});

	it('malformed JSON', async () => {
		sandbox.setFault({ service: 'performance', path: '/sites', kind: 'malformedJson' });
		const { error } = await runPerformance(sandbox, { resource: 'site', operation: 'getAll' });
		expect(error?.message).toBe(
			'The Performance Service answered GET /performance/v1/sites with a body that is not valid JSON (application/json; charset=utf-8)',
		);
		expect(error?.description).toMatch(/points at the API/);
	});

	it('an HTML page instead of JSON', async () => {
		sandbox.setFault({ service: 'performance', path: '/system', kind: 'nonJson' });
		const { error } = await runPerformance(sandbox, { resource: 'system', operation: 'getHealth' });
		expect(error?.message).toMatch(/answered GET \/performance\/v1\/system with a body that is not valid JSON \(text\/html/);
	});

	it('an unreachable host', async () => {
		const port = await closedPort();
		const { error } = await runPerformance(
			sandbox,
			{ resource: 'system', operation: 'getHealth' },
			{ baseUrl: `http://127.0.0.1:${port}/v1` },
		);
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe(`http://127.0.0.1:${port} refused the connection [ECONNREFUSED]`);
		expect(error?.description).toMatch(/Check the base URL in the "Performance Service API" credential/);
	});

	it('a fault on one item does not stop the others with Continue On Fail', async () => {
		sandbox.setFault({ service: 'performance', path: '/sites/site_1', kind: 'drop', times: 1 });
		const result = await runPerformance(sandbox, getSite('={{ $json.site }}'), {
			items: [{ site: 'site_1' }, { site: 'site_1' }],
			continueOnFail: true,
		});
		expect(result.json[0].error).toMatch(/\[ECONNRESET\]$/);
		expect(result.json[1]).toMatchObject({ id: 'site_1' });
	});
});
