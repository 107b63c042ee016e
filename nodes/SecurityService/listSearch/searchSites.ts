import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { recordContains, searchListPages, textOf } from './searchListPages';

/** Sites for the "Site" resource locator, searchable by name, URL and ID. */
export async function searchSites(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const { matched, paginationToken: next } = await searchListPages(
		this,
		{ path: '/sites', plural: 'sites' },
		paginationToken,
		(site) => textOf(site.id) !== undefined && recordContains(site, ['name', 'url', 'id'], filter),
	);
	return {
		results: matched.map((site) => {
			const id = textOf(site.id) as string;
			const name = textOf(site.name);
			const url = textOf(site.url);
			return { name: name && url ? `${name} (${url})` : (name ?? url ?? id), value: id };
		}),
		paginationToken: next,
	};
}
