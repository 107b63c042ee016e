import { describe, expect, it } from 'vitest';

import { securitySandbox } from '../securityNode.mts';

const { sandbox, securityRequests, search } = securitySandbox();

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
