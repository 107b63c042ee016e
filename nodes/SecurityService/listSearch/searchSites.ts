import { recordContains, textOf } from '../../shared/recordText';
import { locatorListSearch } from './searchListPages';

/** Sites for the "Site" resource locator, searchable by name, URL and ID. */
export const searchSites = locatorListSearch(
	{ path: '/sites', plural: 'sites' },
	(site, filter) => recordContains(site, ['name', 'url', 'id'], filter),
	(site, id) => {
		const name = textOf(site.name);
		const url = textOf(site.url);
		return name && url ? `${name} (${url})` : (name ?? url ?? id);
	},
);
