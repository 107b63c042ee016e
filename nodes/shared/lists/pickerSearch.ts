import {
	NodeOperationError,
	jsonParse,
	type IDataObject,
	type ILoadOptionsFunctions,
	type INodeListSearchResult,
} from 'n8n-workflow';

import { fetchListPage, type PageRef } from './pagedRequests';
import { textOf } from './recordFields';
import type { ServiceProfile, ServiceRequest } from '../http/serviceTypes';

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

type LocatorListSearch = (
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) => Promise<INodeListSearchResult>;

/** The pagination token holds one URL: fold the next request's query into it. */
function urlOf(next: PageRef, pageUrl: string): string {
	const url = new URL(next.url ?? pageUrl);
	for (const [key, value] of Object.entries(next.qs ?? {}))
		url.searchParams.set(key, String(value));
	return url.toString();
}

/**
 * The page URL a token holds. Where it points is checked by the request function like every
 * followed link: a token naming another host is refused there, before the key is sent.
 */
function readToken(ctx: ILoadOptionsFunctions, token: string): string {
	const { url } = jsonParse<{ url?: unknown }>(token, { fallbackValue: {} });
	if (typeof url !== 'string' || url === '') {
		throw new NodeOperationError(ctx.getNode(), 'The list could not be continued', {
			description: 'Close the list and open it again.',
		});
	}
	return url;
}

/**
 * A resource locator's list search over a list endpoint: reads pages, keeping the records with
 * an ID that `accepts` keeps for the filter, until enough matched or a few pages were read; the
 * token continues where it stopped.
 */
export function locatorListSearch(list: LocatorList): LocatorListSearch {
	return async function (filter, paginationToken) {
		let request: ServiceRequest = { method: 'GET', path: list.path, scope: list.scope };
		if (paginationToken) request.url = readToken(this, paginationToken);
		const matched: IDataObject[] = [];
		let token: string | undefined;

		for (let pages = 0; ; pages++) {
			if (pages === MAX_PAGES_PER_SEARCH || matched.length >= ENOUGH_MATCHES) {
				token = JSON.stringify({ url: request.url });
				break;
			}
			const page = await fetchListPage(this, list.profile, request, list.plural);
			matched.push(
				...page.records.filter(
					(record) => textOf(record.id) !== undefined && list.accepts(record, filter),
				),
			);
			if (!page.next) break;
			const nextUrl = urlOf(page.next, page.url);
			if (nextUrl === page.url) break;
			request = { ...request, url: nextUrl };
		}

		const results = matched.map((record) => {
			const id = textOf(record.id) as string;
			return { name: list.label(record, id), value: id };
		});
		if (list.sortByLabel && token === undefined)
			results.sort((a, b) => a.name.localeCompare(b.name));
		return { results, paginationToken: token };
	};
}
