import { describe, expect, it } from 'vitest';

import { byId, reasonOf } from '../../support/harness/runNode.mts';
import { callsTo, closedPort } from '../../support/harness/sandbox.mts';
import { performanceSandbox } from './performanceNode.mts';

// The wording of each message is asserted in messages.test.ts; here: reason codes and what happened.
const { sandbox, run } = performanceSandbox();

const getSite = (id: string) => ({ resource: 'site', operation: 'get', siteId: byId(id) });
const reoptimize = (id: string) => ({
	resource: 'site',
	operation: 'reoptimize',
	siteId: byId(id),
});

describe('service error codes', () => {
	it('auth_invalid: a 401 NodeApiError, one request', async () => {
		const { error } = await run(
			{ resource: 'site', operation: 'getAll' },
			{ credentials: { apiToken: 'perf_revoked' } },
		);

		expect(error?.name).toBe('NodeApiError');
		expect(reasonOf(error)).toBe('auth_invalid');
		expect(error?.httpCode).toBe('401');
		expect(callsTo(sandbox, 'performance')).toEqual([
			{ method: 'GET', path: '/sites', query: {}, auth: 'Bearer perf_revoked' },
		]);
	});

	it('a missing scope on Reoptimize: insufficient_scope naming audits:write', async () => {
		const { error } = await run(reoptimize('site_1'), {
			credentials: { apiToken: sandbox.tokens.readOnly },
		});

		expect(error?.name).toBe('NodeApiError');
		expect(reasonOf(error)).toBe('insufficient_scope');
		expect(error?.message).toContain('(audits:write)');
		expect(callsTo(sandbox, 'performance')).toEqual([
			{
				method: 'POST',
				path: '/sites/site_1/reoptimize',
				query: {},
				auth: `Bearer ${sandbox.tokens.readOnly}`,
			},
		]);
	});

	it('a missing scope on reads: names sites:read or audits:read', async () => {
		const sites = await run(
			{ resource: 'site', operation: 'getAll' },
			{ credentials: { apiToken: sandbox.tokens.noScopes } },
		);
		expect(reasonOf(sites.error)).toBe('insufficient_scope');
		expect(sites.error?.message).toContain('(sites:read)');
		const audits = await run(
			{ resource: 'audit', operation: 'getAll' },
			{ credentials: { apiToken: sandbox.tokens.sitesWrite } },
		);
		expect(reasonOf(audits.error)).toBe('insufficient_scope');
		expect(audits.error?.message).toContain('(audits:read)');
	});

	it('not_found: a 404 NodeApiError naming the site ID', async () => {
		for (const parameters of [getSite('site_999'), reoptimize('site_999')]) {
			const { error } = await run(parameters);
			expect(error?.name).toBe('NodeApiError');
			expect(reasonOf(error)).toBe('not_found');
			expect(error?.message).toContain('"site_999"');
			expect(error?.httpCode).toBe('404');
		}
	});

	it('not_found for a base URL without the version segment names the path asked for', async () => {
		const { error } = await run(
			{ resource: 'system', operation: 'getHealth' },
			{ credentials: { baseUrl: `${sandbox.origin}/performance` } },
		);
		expect(reasonOf(error)).toBe('not_found');
		expect(error?.message).toContain('/performance/system');
	});

	it('sends an ID with special characters encoded, as one path segment', async () => {
		const { error } = await run(getSite('site 1?x=#'));
		expect(reasonOf(error)).toBe('not_found');
		expect(error?.message).toContain('"site 1?x=#"');
		expect(callsTo(sandbox, 'performance').map((call) => [call.path, call.query])).toEqual([
			['/sites/site%201%3Fx%3D%23', {}],
		]);
	});
});

describe('unsafe site IDs are refused before any request', () => {
	const unsafe = [
		'',
		'   ',
		'..',
		'../site_1',
		'site_1/reoptimize',
		'a/b',
		'site_1\\x',
		'site..1',
		'/sites',
	];

	for (const id of unsafe) {
		it(`refuses ${JSON.stringify(id)} coming from an expression`, async () => {
			const expected = await run(getSite('={{ $json.site }}'), {
				items: [{ site: id.trim() === '' ? ' ' : '../site_1' }],
			});
			for (const parameters of [getSite('={{ $json.site }}'), reoptimize('={{ $json.site }}')]) {
				const { error } = await run(parameters, { items: [{ site: id }] });
				expect(error?.name).toBe('NodeOperationError');
				// The same message as the reference case of messages.test.ts, for this ID.
				expect(error?.message).toBe(expected.error?.message.replace('../site_1', id));
				expect(error?.description).toBe(expected.error?.description);
			}
			expect(callsTo(sandbox, 'performance')).toEqual([]);
		});
	}

	it('a fixed unsafe ID is flagged by the "By ID" validation before the workflow runs', async () => {
		await expect(run(reoptimize('../site_1'))).rejects.toThrow(Error);
		expect(callsTo(sandbox, 'performance')).toEqual([]);
	});
});

describe('Continue On Fail', () => {
	const items = [
		{ site: 'site_1' },
		{ site: 'site_999' },
		{ site: '../site_1' },
		{ site: '' },
		{ site: 'site_2' },
	];

	it('puts on each failed item the error the node stops with, paired to its input, and runs the others', async () => {
		const stoppedBy = async (site: string) =>
			(await run(getSite('={{ $json.site }}'), { items: [{ site }] })).error;
		const failures = {
			1: await stoppedBy('site_999'),
			2: await stoppedBy('../site_1'),
			3: await stoppedBy(''),
		};
		sandbox.requests.length = 0;

		const result = await run(getSite('={{ $json.site }}'), { items, continueOnFail: true });

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.pairedItem)).toEqual(
			items.map((_, index) => ({ item: index })),
		);
		expect(result.json[0]).toMatchObject({ id: 'site_1', name: 'Acme Shop' });
		expect(result.json[1]).toEqual({
			error: failures[1]?.message,
			message: failures[1]?.description,
		});
		expect(reasonOf(result.json[1].error)).toBe('not_found');
		expect(result.json[2]).toMatchObject({ error: failures[2]?.message });
		expect(result.json[3]).toMatchObject({ error: failures[3]?.message });
		expect(result.json[4]).toMatchObject({ id: 'site_2', name: 'Acme Blog' });
		expect(callsTo(sandbox, 'performance').map((call) => call.path)).toEqual([
			'/sites/site_1',
			'/sites/site_999',
			'/sites/site_2',
		]);
	});

	it('pairs a scope refusal with each item of a Reoptimize', async () => {
		const result = await run(reoptimize('={{ $json.site }}'), {
			items: [{ site: 'site_1' }, { site: 'site_2' }],
			continueOnFail: true,
			credentials: { apiToken: sandbox.tokens.readOnly },
		});
		expect(result.json.map((json) => Object.keys(json))).toEqual([
			['error', 'message'],
			['error', 'message'],
		]);
		for (const json of result.json) {
			expect(reasonOf(json.error)).toBe('insufficient_scope');
			expect(json.error).toContain('(audits:write)');
		}
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('without it, the node stops at the first failed item and names it (one at a time)', async () => {
		const result = await run(
			{ ...getSite('={{ $json.site }}'), options: { parallelRequests: 1 } },
			{ items },
		);
		expect(reasonOf(result.error)).toBe('not_found');
		expect(result.error?.message).toContain('"site_999"');
		expect(result.error?.context?.itemIndex).toBe(1);
		expect(callsTo(sandbox, 'performance').map((call) => call.path)).toEqual([
			'/sites/site_1',
			'/sites/site_999',
		]);
	});

	it('without it, items in parallel fail the node with the first failed item, though later ones were sent', async () => {
		const result = await run(getSite('={{ $json.site }}'), { items });
		expect(reasonOf(result.error)).toBe('not_found');
		expect(result.error?.message).toContain('"site_999"');
		expect(result.error?.context?.itemIndex).toBe(1);
		// Each valid item at most once; the last one (site_2) may have been sent before item 1 failed.
		const paths = callsTo(sandbox, 'performance')
			.map((call) => call.path)
			.sort();
		expect(paths.filter((path) => path !== '/sites/site_2')).toEqual([
			'/sites/site_1',
			'/sites/site_999',
		]);
		expect(paths.length).toBeLessThanOrEqual(3);
	});
});

describe('input checks before the request', () => {
	it('refuses an audit limit outside 1-100 from an expression', async () => {
		const { error } = await run({ resource: 'audit', operation: 'getAll', limit: '={{ 500 }}' });
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toContain('not 500');
		expect(callsTo(sandbox, 'performance')).toEqual([]);
	});

	it('refuses a site limit below 1 from an expression', async () => {
		const { error } = await run({ resource: 'site', operation: 'getAll', limit: '={{ 0 }}' });
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toContain('not 0');
		expect(callsTo(sandbox, 'performance')).toEqual([]);
	});
});

describe('transport faults give clear errors and are not retried', () => {
	it('a dropped connection', async () => {
		sandbox.setFault({ service: 'performance', path: '/system', kind: 'drop' });
		const { error } = await run({ resource: 'system', operation: 'getHealth' });
		expect(error?.name).toBe('NodeApiError');
		expect(reasonOf(error)).toBe('ECONNRESET');
		expect(callsTo(sandbox, 'performance')).toHaveLength(1);
	});

	it('a 500 on Reoptimize is not retried: the service may have queued the work', async () => {
		sandbox.setFault({
			service: 'performance',
			path: '/sites/site_1/reoptimize',
			kind: 'status500',
		});
		const { error } = await run(reoptimize('site_1'));
		expect(reasonOf(error)).toBe('internal_error');
		expect(error?.httpCode).toBe('500');
		expect(callsTo(sandbox, 'performance').map((call) => call.method)).toEqual(['POST']);
	});

	it('a 503', async () => {
		sandbox.setFault({ service: 'performance', path: '/sites', kind: 'status503' });
		const { error } = await run({ resource: 'site', operation: 'getAll' });
		expect(reasonOf(error)).toBe('service_unavailable');
		expect(error?.httpCode).toBe('503');
		expect(callsTo(sandbox, 'performance')).toHaveLength(1);
	});

	it('malformed JSON', async () => {
		sandbox.setFault({ service: 'performance', path: '/sites', kind: 'malformedJson' });
		const { error } = await run({ resource: 'site', operation: 'getAll' });
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toContain('not valid JSON (application/json; charset=utf-8)');
	});

	it('an HTML page instead of JSON', async () => {
		sandbox.setFault({ service: 'performance', path: '/system', kind: 'nonJson' });
		const { error } = await run({ resource: 'system', operation: 'getHealth' });
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toContain('GET /performance/v1/system');
		expect(error?.message).toContain('(text/html');
	});

	it('an unreachable host', async () => {
		const port = await closedPort();
		const { error } = await run(
			{ resource: 'system', operation: 'getHealth' },
			{ credentials: { baseUrl: `http://127.0.0.1:${port}/v1` } },
		);
		expect(error?.name).toBe('NodeApiError');
		expect(reasonOf(error)).toBe('ECONNREFUSED');
		expect(error?.message).toContain(`http://127.0.0.1:${port}`);
	});

	it('a fault on one item does not stop the others with Continue On Fail', async () => {
		sandbox.setFault({ service: 'performance', path: '/sites/site_1', kind: 'drop', times: 1 });
		const result = await run(getSite('={{ $json.site }}'), {
			items: [{ site: 'site_1' }, { site: 'site_1' }],
			continueOnFail: true,
		});
		expect(reasonOf(result.json[0].error)).toBe('ECONNRESET');
		expect(result.json[1]).toMatchObject({ id: 'site_1' });
	});
});
