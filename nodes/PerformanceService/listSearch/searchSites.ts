import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { performanceList } from '../../shared/performanceTransport';

function text(value: unknown): string {
	return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

function matches(site: IDataObject, needle: string): boolean {
	return [site.name, site.hostname].some((value) => text(value).toLowerCase().includes(needle));
}

function label(site: IDataObject): string {
	const name = text(site.name) || text(site.id);
	const hostname = text(site.hostname);
	return hostname && hostname !== name ? `${name} (${hostname})` : name;
}

/** Sites for the "Site" list, filtered by name or hostname. The endpoint is not paginated. */
export async function searchSites(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const sites = await performanceList(
		this,
		{ method: 'GET', path: '/sites', scope: 'sites:read' },
		{ plural: 'sites', returnAll: true, limit: 0 },
	);
	const needle = (filter ?? '').trim().toLowerCase();
	const results = sites
		.filter((site) => text(site.id) !== '' && (needle === '' || matches(site, needle)))
		.map((site) => ({ name: label(site), value: text(site.id) }))
		.sort((a, b) => a.name.localeCompare(b.name));
	return { results };
}
