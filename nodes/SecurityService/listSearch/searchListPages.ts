import {
	NodeOperationError,
	jsonParse,
	type IDataObject,
	type ILoadOptionsFunctions,
	type INodeListSearchResult,
} from 'n8n-workflow';

import { fetchListPage } from '../../shared/fetchList';
import { textOf } from '../../shared/recordText';
import { SECURITY_REQUEST_LIMIT, SECURITY_SERVICE } from '../../shared/securityTransport';
import { joinUrl, type ServiceRequest } from '../../shared/serviceRequest';

/** Stop reading pages once this many records matched; the rest loads when the list scrolls. */
const ENOUGH_MATCHES = 50;
/** Pages read per call at most, to stay well inside the plan's rate limit while typing. */
const MAX_PAGES_PER_CALL = 5;

interface SearchResult {
	matched: IDataObject[];
	paginationToken?: string;
}

interface PageToken {
	url: string;
}

/** The pagination token holds one URL: fold the next request's query into it. */
function urlOf(request: ServiceRequest): string {
	const url = new URL(request.url as string);
	for (const [key, value] of Object.entries(request.qs ?? {})) url.searchParams.set(key, String(value));
	return url.toString();
}

/** A token is a page URL the service gave; it must stay on the credential's host, which gets the key. */
function readToken(ctx: ILoadOptionsFunctions, token: string, baseUrl: string): string {
	const parsed = jsonParse<PageToken>(token, { fallbackValue: { url: '' } });
	let url: URL | undefined;
	try {
		url = new URL(parsed.url);
		if (url.origin !== new URL(baseUrl).origin) url = undefined;
	} catch {
		url = undefined;
	}
	if (!url) {
		throw new NodeOperationError(ctx.getNode(), 'The list could not be continued', {
			description: 'Close the list and open it again.',
		});
	}
	return url.toString();
}

/**
 * Reads pages of a list for a resource locator, keeping the records `matches` accepts, until
 * enough matched or a few pages were read; the token continues where it stopped.
 */
async function searchListPages(
	ctx: ILoadOptionsFunctions,
	endpoint: { path: string; plural: string },
	paginationToken: string | undefined,
	matches: (record: IDataObject) => boolean,
): Promise<SearchResult> {
	const credentials = await ctx.getCredentials(SECURITY_SERVICE.credentialType);
	const firstUrl = joinUrl(credentials.baseUrl, endpoint.path);
	let request: ServiceRequest = paginationToken
		? { method: 'GET', path: endpoint.path, url: readToken(ctx, paginationToken, firstUrl) }
		: { method: 'GET', path: endpoint.path };
	const matched: IDataObject[] = [];

	for (let pages = 0; pages < MAX_PAGES_PER_CALL; pages++) {
		const page = await fetchListPage(ctx, SECURITY_SERVICE, { ...request, limits: SECURITY_REQUEST_LIMIT }, endpoint.plural);
		matched.push(...page.records.filter(matches));
		if (!page.next) return { matched };
		const nextUrl = urlOf(page.next);
		if (nextUrl === page.url) return { matched };
		request = { method: 'GET', path: endpoint.path, url: nextUrl };
		if (matched.length >= ENOUGH_MATCHES) break;
	}
	return { matched, paginationToken: JSON.stringify({ url: request.url }) };
}

export type LocatorListSearch = (
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) => Promise<INodeListSearchResult>;

/** A resource locator's list search: the records with an ID that `accepts` keeps for the filter. */
export function locatorListSearch(
	endpoint: { path: string; plural: string },
	accepts: (record: IDataObject, filter: string | undefined) => boolean,
	label: (record: IDataObject, id: string) => string,
): LocatorListSearch {
	return async function (filter, paginationToken) {
		const { matched, paginationToken: next } = await searchListPages(
			this,
			endpoint,
			paginationToken,
			(record) => textOf(record.id) !== undefined && accepts(record, filter),
		);
		return {
			results: matched.map((record) => {
				const id = textOf(record.id) as string;
				return { name: label(record, id), value: id };
			}),
			paginationToken: next,
		};
	};
}
