import type { IDataObject } from 'n8n-workflow';

import { locatorListSearch } from '../../shared/lists/pickerSearch';
import { PERFORMANCE_SCOPES } from '../transport/serviceValues';
import { PERFORMANCE_SERVICE } from '../transport';
import { recordContains, textOf } from '../../shared/lists/recordFields';

function label(site: IDataObject, id: string): string {
	const name = textOf(site.name) ?? id;
	const hostname = textOf(site.hostname);
	return hostname && hostname !== name ? `${name} (${hostname})` : name;
}

/** Sites for the "Site" resource locator, searchable by name and hostname, sorted by name. */
export const searchSites = locatorListSearch({
	profile: PERFORMANCE_SERVICE,
	path: '/sites',
	scope: PERFORMANCE_SCOPES.sitesRead,
	plural: 'sites',
	accepts: (site, filter) => recordContains(site, ['name', 'hostname'], filter),
	label,
	sortByLabel: true,
});
