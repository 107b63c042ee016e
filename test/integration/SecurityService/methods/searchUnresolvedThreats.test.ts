import { describe, expect, it } from 'vitest';

import { testCredential } from '../../../support/harness/credentialTest.ts';
import { runListSearch } from '../../../support/harness/listSearch.ts';
import { reasonOf } from '../../../support/harness/runNode.ts';
import { requestsTo, sandboxCredentials, withSandbox } from '../../../support/harness/sandbox.ts';

const sandbox = withSandbox();
const securityRequests = () => requestsTo(sandbox, 'security');

function search(method: string, filter?: string, paginationToken?: string) {
	return runListSearch({
		nodeType: 'securityService',
		method,
		credentials: sandboxCredentials(sandbox),
		filter,
		paginationToken,
	});
}

describe('Site list (scan trigger)', () => {
	it('lists every site with its name and URL, the ID as value', async () => {
		const { results, paginationToken } = await search('searchSites');

		expect(results).toEqual([
			{ name: 'Northwind Traders (https://www.northwind.example)', value: 'st_1' },
			{ name: 'Contoso Blog (https://blog.contoso.example)', value: 'st_2' },
			{ name: 'Fabrikam Shop (https://shop.fabrikam.example)', value: 'st_3' },
		]);
		expect(paginationToken).toBeUndefined();
		expect(securityRequests()[0]).toMatchObject({ method: 'GET', path: '/sites' });
		expect(securityRequests()[0].headers.authorization).toBe(`Bearer ${sandbox.securityKey}`);
	});

	it('searches name and URL, case-insensitively', async () => {
		expect((await search('searchSites', 'CONTOSO')).results.map((site) => site.value)).toEqual([
			'st_2',
		]);
		expect((await search('searchSites', 'shop.fab')).results.map((site) => site.value)).toEqual([
			'st_3',
		]);
	});

	it('reads a bare list the same way', async () => {
		sandbox.setOptions({ securityListShape: 'bare' });
		expect((await search('searchSites')).results).toHaveLength(3);
	});
});

describe('Unresolved threat list (threat resolve)', () => {
	it('lists only the threats not resolved', async () => {
		const { results } = await search('searchUnresolvedThreats');

		// Every fourth seeded threat (thr_4, thr_8, …) is resolved.
		expect(results).toHaveLength(21);
		expect(results.map((threat) => threat.value)).not.toContain('thr_4');
		expect(results[0]).toEqual({
			name: 'Injected script in theme footer (low, st_1, thr_1)',
			value: 'thr_1',
		});
	});

	it('searches title, severity and ID', async () => {
		const critical = await search('searchUnresolvedThreats', 'critical');
		// The seeded critical threats are all resolved.
		expect(critical.results).toEqual([]);
		sandbox.addThreat({ severity: 'critical', title: 'Backdoor in uploads' });
		expect(
			(await search('searchUnresolvedThreats', 'backdoor')).results.map((threat) => threat.value),
		).toEqual(['thr_28']);
	});

	it('continues a paginated list with the token, a few pages per call', async () => {
		sandbox.setOptions({ securityListShape: 'paginated' });
		for (let index = 0; index < 40; index++) sandbox.addThreat({ title: `Extra ${index}` });

		// 67 threats in pages of 10: the first call reads 5 pages, the second the remaining 2.
		const first = await search('searchUnresolvedThreats');
		expect(first.paginationToken).toEqual(expect.any(String));
		expect(securityRequests().map((request) => request.query.page)).toEqual([
			undefined,
			'2',
			'3',
			'4',
			'5',
		]);
		const second = await search('searchUnresolvedThreats', undefined, first.paginationToken);
		expect(second.paginationToken).toBeUndefined();
		expect(
			securityRequests()
				.slice(5)
				.map((request) => request.query.page),
		).toEqual(['6', '7']);

		const ids = [...first.results, ...second.results].map((threat) => threat.value);
		expect(ids).toHaveLength(21 + 40);
		expect(new Set(ids).size).toBe(ids.length);
	});

	it('refuses a token pointing at another host, so the key never leaves for it', async () => {
		const token = JSON.stringify({ url: 'http://attacker.invalid/threats?page=2' });
		const error: unknown = await search('searchUnresolvedThreats', undefined, token).catch(
			(caught: unknown) => caught,
		);
		// The wording is asserted in originRule.test.ts.
		expect(reasonOf(error)).toBe('foreign_url');
		expect((error as Error).message).toContain('http://attacker.invalid');
		expect(securityRequests()).toHaveLength(0);
	});
});

describe('Security Service API credential test', () => {
	it('passes with the right key and base URL, with or without a trailing slash', async () => {
		expect(
			await testCredential('securityServiceApi', {
				baseUrl: sandbox.securityUrl,
				apiKey: sandbox.securityKey,
			}),
		).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		expect(
			(
				await testCredential('securityServiceApi', {
					baseUrl: `${sandbox.securityUrl}/`,
					apiKey: sandbox.securityKey,
				})
			).status,
		).toBe('OK');
		expect(
			securityRequests().map((request) => [
				request.method,
				request.path,
				request.headers.authorization,
			]),
		).toEqual([
			['GET', '/sites', `Bearer ${sandbox.securityKey}`],
			['GET', '/sites', `Bearer ${sandbox.securityKey}`],
		]);
	});

	it('tells a bad key, a wrong URL and an unreachable host apart', async () => {
		const badKey = await testCredential('securityServiceApi', {
			baseUrl: sandbox.securityUrl,
			apiKey: 'sec_wrong',
		});
		const wrongUrl = await testCredential('securityServiceApi', {
			baseUrl: `${sandbox.origin}/security`,
			apiKey: sandbox.securityKey,
		});
		const unreachable = await testCredential('securityServiceApi', {
			baseUrl: 'http://127.0.0.1:1/v1',
			apiKey: sandbox.securityKey,
		});

		expect(badKey).toEqual({
			status: 'Error',
			message:
				'The service rejected the API key: check the key in the dashboard settings (it may have been rotated).',
		});
		expect(wrongUrl).toEqual({
			status: 'Error',
			message:
				'No API answered at <base URL>/sites: check the base URL (with the version segment, without /api).',
		});
		// n8n's tester reports a connection failure by its error code.
		expect(unreachable).toEqual({ status: 'Error', message: 'ECONNREFUSED' });
		expect(new Set([badKey.message, wrongUrl.message, unreachable.message]).size).toBe(3);
	});
});
