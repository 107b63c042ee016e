import { locatorListSearch } from '../../shared/lists/pickerSearch';
import { recordContains, textOf } from '../../shared/lists/recordFields';
import { SECURITY_SERVICE } from '../transport';

/** Sites for the "Site" resource locator, searchable by name, URL and ID. */
export const searchSites = locatorListSearch({
	profile: SECURITY_SERVICE,
	path: '/sites',
	plural: 'sites',
	accepts: (site, filter) => recordContains(site, ['name', 'url', 'id'], filter),
	label: (site, id) => {
		const name = textOf(site.name);
		const url = textOf(site.url);
		return name && url ? `${name} (${url})` : (name ?? url ?? id);
	},
});
