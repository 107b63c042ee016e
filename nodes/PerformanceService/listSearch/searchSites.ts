import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { performanceList } from '../../shared/performanceTransport';
import { recordContains, scalarText } from '../../shared/recordText';

function label(site: IDataObject): string {
	const name = scalarText(site.name) || scalarText(site.id);
	const hostname = scalarText(site.hostname);
	return hostname && hostname !== name ? `${name} (${hostname})` : name;
}

/** Sites for the "Site" list, filtered by name or hostname. The endpoint is not paginated. */
export async function searchSites(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const sites = await performanceList(
		this,
		{ method: 'GET', path: '/sites', scope: 'sites:read' },
		{ plural: 'sites', returnAll: true, limit: 0 },
	);
	const results = sites
		.filter((site) => scalarText(site.id) !== '' && recordContains(site, ['name', 'hostname'], filter))
		.map((site) => ({ name: label(site), value: scalarText(site.id) }))
		.sort((a, b) => a.name.localeCompare(b.name));
	return { results };
}
