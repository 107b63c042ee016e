import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { fetchListPage, type PageRef } from './pagedRequests';
import { textOf } from './recordFields';
import type { ServiceProfile } from '../http/serviceTypes';

/** Stop reading pages once this many records matched; the rest loads when the list scrolls. */
const ENOUGH_MATCHES = 50;
/** Pages read per call at most, to stay well inside the services' rate limits while typing. */
const MAX_PAGES_PER_SEARCH = 5;

interface LocatorList {
	/** The service whose list it reads. */
	profile: ServiceProfile;
	/** Path below the base URL, e.g. `/threats`. */
	path: string;
	/** Scope the list needs, named in the message when the token lacks it. */
	scope?: string;
	/** Plural name, the key a wrapped list is most likely under. */
	plural: string;
	/** Whether the record belongs in the list for the typed filter. */
	accepts: (record: IDataObject, filter: string | undefined) => boolean;
	/** The name shown for the record. */
	label: (record: IDataObject, id: string) => string;
	/**
	 * Sort a call's results by name when the whole list came in that call (no token). For a
	 * service that pages its lists itself, the service's order is kept.
	 */
	sortByLabel?: boolean;
}

/** The next page as one URL, the next request's query folded in; undefined when it is the page itself. */
function nextPageUrl(next: PageRef | undefined, pageUrl: string): string | undefined {
	if (!next) return undefined;
	const url = new URL(next.url ?? pageUrl);
	for (const [key, value] of Object.entries(next.qs ?? {}))
		url.searchParams.set(key, String(value));
	return url.href === pageUrl ? undefined : url.href;
}

/**
 * A resource locator's list search over a list endpoint: reads pages, keeping the records with
 * an ID that `accepts` keeps for the filter, until enough matched or a few pages were read. The
 * pagination token is the URL of the page where it stopped; where it points is checked by the
 * request function like every followed link: a token naming another host is refused there,
 * before the key is sent.
 */
export function locatorListSearch(list: LocatorList) {
	return async function (
		this: ILoadOptionsFunctions,
		filter?: string,
		paginationToken?: string,
	): Promise<INodeListSearchResult> {
		/** The page to read next (undefined: the first page, or none after the last one). */
		let url = paginationToken || undefined;
		const matched: IDataObject[] = [];
		for (let pages = 0; pages < MAX_PAGES_PER_SEARCH && matched.length < ENOUGH_MATCHES; pages++) {
			const request = { method: 'GET' as const, path: list.path, scope: list.scope, url };
			const page = await fetchListPage(this, list.profile, request, list.plural);
			matched.push(
				...page.records.filter(
					(record) => textOf(record.id) !== undefined && list.accepts(record, filter),
				),
			);
			url = nextPageUrl(page.next, page.url);
			if (url === undefined) break;
		}

		const results = matched.map((record) => {
			const id = textOf(record.id) as string;
			return { name: list.label(record, id), value: id };
		});
		if (list.sortByLabel && url === undefined) results.sort((a, b) => a.name.localeCompare(b.name));
		return { results, paginationToken: url };
	};
}
