import { NodeApiError, type IDataObject, type JsonObject } from 'n8n-workflow';

import { unwrapList, type PageRef } from './unwrapList';
import { parseUrl } from '../http/baseUrl';
import { requestService } from '../http/serviceRequest';
import type { ServiceContext, ServiceProfile, ServiceRequest } from '../http/serviceTypes';

/** One page of a list: its records and the following page, when the service named one. */
export interface ListPage {
	records: IDataObject[];
	next?: PageRef;
}

/** A list is read to at most this many pages; one with more fails rather than coming back cut short. */
export const MAX_PAGES = 1000;

/**
 * One page of a list in any shape, the URL it came from, and the request for the page after it
 * (none after an empty page).
 */
export async function fetchListPage(
	ctx: ServiceContext,
	profile: ServiceProfile,
	request: ServiceRequest,
	plural: string,
): Promise<ListPage & { url: string }> {
	const response = await requestService(ctx, profile, request);
	const list = unwrapList(response.body, plural, response.headers);
	if (!list) {
		throw new NodeApiError(
			ctx.getNode(),
			{ body: JSON.stringify(response.body).slice(0, 500) } as JsonObject,
			{
				message: `The ${profile.serviceName} answered without a list of ${plural}`,
				description: `Expected an array, or an object holding one. Check the base URL in the "${profile.credentialName}" credential and, if you passed query parameters, that the endpoint accepts them.`,
				itemIndex: request.itemIndex,
			},
		);
	}
	if (!list.next || list.records.length === 0) return { url: response.url, records: list.records };
	// A link is read against the page it came on; the request function checks where it points.
	const next: PageRef = list.next.url
		? { url: parseUrl(list.next.url, response.url)?.href ?? list.next.url }
		: { url: response.url, qs: { ...request.qs, ...list.next.qs } };
	return { url: response.url, records: list.records, next };
}

export type { PageRef };

/** Reads one page of a list (the first when `at` is undefined). */
export type PageReader = (at: PageRef | undefined) => Promise<ListPage>;

/** A reader of the pages of the list `request` asks for, a request each (`fetchListPage`). */
export function pageReader(
	ctx: ServiceContext,
	profile: ServiceProfile,
	request: ServiceRequest,
	plural: string,
): PageReader {
	return async (at) => {
		const pageRequest = at ? { ...request, url: at.url, qs: at.qs } : request;
		return await fetchListPage(ctx, profile, pageRequest, plural);
	};
}

function pageKey(at: PageRef | undefined): string {
	return JSON.stringify([at?.url ?? '', at?.qs ?? {}]);
}

/**
 * The pages of a list from `from` (its first page when undefined) on, one request each, following
 * the service's links, each with where it was asked for (`at`); a page whose link repeats one
 * already read ends the list. The caller stops reading when it has what it needs.
 */
export async function* listPages(
	readPage: PageReader,
	from?: PageRef,
): AsyncGenerator<ListPage & { at?: PageRef }> {
	const read = new Set<string>();
	for (let at = from; ; ) {
		const page = await readPage(at);
		read.add(pageKey(at));
		const next = page.next && !read.has(pageKey(page.next)) ? page.next : undefined;
		yield { at, records: page.records, next };
		if (!next) return;
		at = next;
	}
}

/**
 * Reads a list in any shape and, for Return All (or a limit beyond the first page), follows the
 * pagination hints the service gave until there are none, a page is empty, or a link repeats.
 * More than `MAX_PAGES` pages is an error: a list is never returned cut short without saying so.
 * `plural`: the resource's plural name, the key a wrapped list is most likely under (`threats`).
 */
export async function fetchList(
	ctx: ServiceContext,
	profile: ServiceProfile,
	request: ServiceRequest,
	options: { plural: string; returnAll: boolean; limit: number },
): Promise<IDataObject[]> {
	const records: IDataObject[] = [];
	let pages = 0;
	for await (const page of listPages(pageReader(ctx, profile, request, options.plural))) {
		records.push(...page.records);
		pages++;
		if (!options.returnAll && records.length >= options.limit) break;
		if (page.next && pages === MAX_PAGES) {
			throw new NodeApiError(ctx.getNode(), { pages, records: records.length } as JsonObject, {
				message: `The list of ${options.plural} has more than ${MAX_PAGES} pages; stopped after ${records.length} records`,
				description:
					'Turn off Return All and set a Limit, or narrow the list with a filter (Query Parameters), so that it fits.',
				itemIndex: request.itemIndex,
			});
		}
	}
	return options.returnAll ? records : records.slice(0, options.limit);
}
