import { locatorListSearch } from '../../shared/locatorListSearch';
import { recordContains, textOf } from '../../shared/records';
import { securityListPage } from '../../shared/securityTransport';

/** Sites for the "Site" resource locator, searchable by name, URL and ID. */
export const searchSites = locatorListSearch({
	readPage: securityListPage,
	path: '/sites',
	plural: 'sites',
	accepts: (site, filter) => recordContains(site, ['name', 'url', 'id'], filter),
	label: (site, id) => {
		const name = textOf(site.name);
		const url = textOf(site.url);
		return name && url ? `${name} (${url})` : (name ?? url ?? id);
	},
});
