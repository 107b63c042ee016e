import { describe, expect, it } from 'vitest';

import { runListSearch } from '../../../support/harness/listSearch.mts';
import { reasonOf } from '../../../support/harness/runNode.mts';
import { callsTo, withSandbox } from '../../../support/harness/sandbox.mts';

const sandbox = withSandbox();

describe('the site list search', () => {
	const search = (
		filter?: string,
		baseUrl = sandbox.performanceUrl,
		token = sandbox.tokens.readOnly,
	) =>
		runListSearch({
			nodeType: 'performanceService',
			method: 'searchSites',
			credentials: { performanceServiceApi: { baseUrl, apiToken: token } },
			parameters: { resource: 'site', operation: 'get' },
			filter,
		});

	it('lists every site by name and hostname, sorted, with the ID as value', async () => {
		expect(await search()).toEqual({
			results: [
				{ name: 'Acme Blog (blog.example.com)', value: 'site_2' },
				{ name: 'Acme Docs (docs.example.com)', value: 'site_3' },
				{ name: 'Acme Microsite (micro.example.com)', value: 'site_4' },
				{ name: 'Acme Shop (shop.example.com)', value: 'site_1' },
			],
		});
		expect(callsTo(sandbox, 'performance')).toEqual([
			{ method: 'GET', path: '/sites', query: {}, auth: `Bearer ${sandbox.tokens.readOnly}` },
		]);
	});

	it('filters on the name or the hostname, ignoring case', async () => {
		expect((await search('SHOP')).results.map((result) => result.value)).toEqual(['site_1']);
		expect((await search('docs.example')).results.map((result) => result.value)).toEqual([
			'site_3',
		]);
		expect((await search('  micro ')).results.map((result) => result.value)).toEqual(['site_4']);
		expect((await search('no such site')).results).toEqual([]);
	});

	it('works with a trailing slash on the base URL', async () => {
		expect((await search('blog', `${sandbox.performanceUrl}/`)).results).toHaveLength(1);
		expect(callsTo(sandbox, 'performance').map((call) => call.path)).toEqual(['/sites']);
	});

	it('explains a rejected token', async () => {
		const error: unknown = await search('', sandbox.performanceUrl, 'perf_wrong').catch(
			(caught: unknown) => caught,
		);
		expect(error).toBeInstanceOf(Error);
		expect(reasonOf(error)).toBe('auth_invalid');
	});
});
