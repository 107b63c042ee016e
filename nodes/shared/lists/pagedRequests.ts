import { NodeApiError, type IDataObject, type INode, type JsonObject } from 'n8n-workflow';

import { unwrapList, type PageRef } from './unwrapList';
import { parseUrl } from '../http/baseUrl';
import { requestService } from '../http/serviceRequest';
import type {
	ServiceContext,
	ServiceProfile,
	ServiceRequest,
	ServiceResponse,
} from '../http/serviceTypes';

export type { PageRef };

/** One page of a list: its records and the following page, when the service named one. */
export interface ListPage {
	records: IDataObject[];
	next?: PageRef;
	/** The page as it was asked for (URL and query), when the reader knows it; else the walk's `at`. */
	requested?: PageRef;
	/** Why the list cannot go on after this page (a more-pages signal naming nothing to follow). */
	cannotContinue?: Error;
}

/** A list is read to at most this many pages; one with more fails rather than coming back cut short. */
export const MAX_PAGES = 1000;

/** Reads one page of a list (the first when `at` is undefined); `node` is named in the walk's errors. */
export type PageReader = ((at: PageRef | undefined) => Promise<ListPage>) & { node?: INode };

/** Relative page refs (in tests) are keyed below this. */
const RELATIVE = 'http://relative.invalid/';

function textOfValue(value: unknown): string {
	return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/** The query a page is asked with: the URL's own and `qs`, as name/value pairs. */
function queryPairs(ref: PageRef | undefined): Array<[string, string]> {
	const url = parseUrl(ref?.url ?? '', RELATIVE);
	const pairs: Array<[string, string]> = [...(url?.searchParams ?? [])];
	for (const [name, value] of Object.entries(ref?.qs ?? {})) {
		for (const one of [value].flat()) pairs.push([name, textOfValue(one)]);
	}
	return pairs;
}

/**
 * What tells pages apart: the URL and the query a page is asked with, the same parameters in any
 * order being the same page.
 */
export function pageKey(ref: PageRef | undefined): string {
	const url = parseUrl(ref?.url ?? '', RELATIVE);
	const where = url ? `${url.origin}${url.pathname}` : (ref?.url ?? '');
	const pairs = [...new Set(queryPairs(ref).map((pair) => JSON.stringify(pair)))].sort();
	return `${where} ${pairs.join('&')}`;
}

/** A page's URL with its query, for messages. */
function shownPage(ref: PageRef | undefined): string {
	const url = parseUrl(ref?.url ?? '', RELATIVE);
	const search = new URLSearchParams(queryPairs(ref)).toString();
	const path = url?.href.startsWith(RELATIVE)
		? url.pathname.slice(1)
		: `${url?.origin ?? ''}${url?.pathname ?? ''}`;
	return `${path}${search ? `?${search}` : ''}`.slice(0, 300);
}

/** `qs` without the parameters the URL's own query sets: a link's own value wins. */
function queryNotIn(url: string | undefined, qs: IDataObject | undefined): IDataObject | undefined {
	const own = parseUrl(url ?? '', RELATIVE)?.searchParams;
	const kept = Object.entries(qs ?? {}).filter(([name]) => !own?.has(name));
	return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

/** The URL without the query parameters `names` (kept as the service encoded the others). */
function withoutParams(url: string, names: string[]): string {
	const [rest, fragment] = url.split('#', 2);
	const [path, query] = rest.split('?', 2);
	if (query === undefined) return url;
	const kept = query.split('&').filter((part) => {
		try {
			return !names.includes(decodeURIComponent(part.split('=')[0].replace(/\+/g, ' ')));
		} catch {
			return true;
		}
	});
	return `${path}${kept.length > 0 ? `?${kept.join('&')}` : ''}${fragment === undefined ? '' : `#${fragment}`}`;
}

/** The request for page `at` of the list `request` asks for: the list's query goes on every page. */
export function pageRequestOf(request: ServiceRequest, at: PageRef | undefined): ServiceRequest {
	if (!at) return request;
	return { ...request, url: at.url, qs: { ...queryNotIn(at.url, request.qs), ...at.qs } };
}

/**
 * One answer of a list read as a page: its records, the page it was asked as (`requested`) and the
 * page after it, carrying the list's query `listQs` unless the service's link sets a parameter
 * itself. An answer without a list fails; a more-pages signal naming nothing to follow is kept as
 * the page's `cannotContinue` (the walk fails only if it goes on).
 */
export function listPageOf(
	node: INode,
	profile: ServiceProfile,
	answer: ServiceResponse,
	request: ServiceRequest,
	plural: string,
	listQs: IDataObject | undefined = request.qs,
): ListPage & { url: string } {
	const list = unwrapList(answer.body, plural, answer.headers);
	const itemIndex = request.itemIndex;
	if (!list) {
		throw new NodeApiError(
			node,
			{ body: JSON.stringify(answer.body).slice(0, 500) } as JsonObject,
			{
				message: `The ${profile.serviceName} answered without a list of ${plural}`,
				description: `Expected an array, or an object holding one. Check the base URL in the "${profile.credentialName}" credential and, if you passed query parameters, that the endpoint accepts them.`,
				itemIndex,
			},
		);
	}
	const page: ListPage & { url: string } = {
		url: answer.url,
		records: list.records,
		requested: { url: answer.url, qs: request.qs },
	};
	if (list.unreadable !== undefined) {
		page.cannotContinue = new NodeApiError(node, { signal: list.unreadable } as JsonObject, {
			message: `The ${profile.serviceName} says the list of ${plural} goes on (${list.unreadable}) but names no page to read next`,
			description:
				'Nothing was output rather than a list cut short. Turn off Return All and set a Limit that the first page holds, or pass the paging parameters the service takes in Query Parameters.',
			itemIndex,
		});
	}
	if (!list.next) return page;
	if (list.next.url !== undefined) {
		// A link is read against the page it came on; the request function checks where it points.
		const url = parseUrl(list.next.url, answer.url)?.href ?? list.next.url;
		page.next = { url, qs: queryNotIn(url, listQs) };
	} else {
		// A cursor, page or offset replaces its own parameter in the request of this page.
		const hint = list.next.qs ?? {};
		const url = withoutParams(answer.url, Object.keys(hint));
		page.next = { url, qs: { ...request.qs, ...hint } };
	}
	if (page.next.qs === undefined) delete page.next.qs;
	return page;
}

/**
 * One page of a list in any shape (`listPageOf`), a request each; `listQs`: the list's query
 * parameters, kept on every page (the first request's by default).
 */
export async function fetchListPage(
	ctx: ServiceContext,
	profile: ServiceProfile,
	request: ServiceRequest,
	plural: string,
	listQs: IDataObject | undefined = request.qs,
): Promise<ListPage & { url: string }> {
	const answer = await requestService(ctx, profile, request);
	return listPageOf(ctx.getNode(), profile, answer, request, plural, listQs);
}

/** A reader of the pages of the list `request` asks for, a request each (`fetchListPage`). */
export function pageReader(
	ctx: ServiceContext,
	profile: ServiceProfile,
	request: ServiceRequest,
	plural: string,
): PageReader {
	const read = async (at: PageRef | undefined) =>
		await fetchListPage(ctx, profile, pageRequestOf(request, at), plural, request.qs);
	return Object.assign(read, { node: ctx.getNode() });
}

/** The walk's own failure: a node error when the reader names its node. */
function walkError(
	readPage: PageReader,
	message: string,
	description: string,
	details: JsonObject,
	itemIndex?: number,
): Error {
	if (!readPage.node) return new Error(`${message}. ${description}`);
	return new NodeApiError(readPage.node, details, { message, description, itemIndex });
}

function repeatedPage(readPage: PageReader, page: PageRef | undefined): Error {
	const shown = shownPage(page);
	return walkError(
		readPage,
		`The service named a page of the list already read (${shown}), so the list stops here rather than repeat records`,
		'Nothing was output from this list. The service ignored the cursor or page number it was sent, or linked back to an earlier page. If you passed paging parameters in Query Parameters, check them.',
		{ page: shown },
	);
}

/**
 * The pages of a list from `from` (its first page when undefined) on, one request each, following
 * the service's links, each with where it was asked for (`at`). A page is told by its URL and
 * query (`pageKey`): a page whose next page was read already (a link back, a self-link, a cursor
 * or page number the service ignored) fails before its records are yielded, and going on after a
 * page whose more-pages signal names nothing fails too. The caller stops reading when it has what
 * it needs.
 */
export async function* listPages(
	readPage: PageReader,
	from?: PageRef,
): AsyncGenerator<ListPage & { at?: PageRef }> {
	const read = new Set<string>();
	for (let at = from; ; ) {
		const page = await readPage(at);
		const key = pageKey(page.requested ?? at);
		if (read.has(key)) throw repeatedPage(readPage, page.requested ?? at);
		read.add(key);
		if (page.next && read.has(pageKey(page.next))) throw repeatedPage(readPage, page.next);
		yield { at, records: page.records, next: page.next };
		if (page.cannotContinue && !page.next) throw page.cannotContinue;
		if (!page.next) return;
		at = page.next;
	}
}

/**
 * The records of a list read by `readPage`: for Return All (or a limit beyond the first page) to
 * its last page. More than `MAX_PAGES` pages is an error: a list is never returned cut short
 * without saying so.
 */
export async function collectList(
	readPage: PageReader,
	options: { plural: string; returnAll: boolean; limit: number; itemIndex?: number },
): Promise<IDataObject[]> {
	const records: IDataObject[] = [];
	let pages = 0;
	for await (const page of listPages(readPage)) {
		records.push(...page.records);
		pages++;
		if (!options.returnAll && records.length >= options.limit) break;
		if (page.next && pages === MAX_PAGES) {
			throw walkError(
				readPage,
				`The list of ${options.plural} has more than ${MAX_PAGES} pages; stopped after ${records.length} records`,
				'Turn off Return All and set a Limit, or narrow the list with a filter (Query Parameters), so that it fits.',
				{ pages, records: records.length },
				options.itemIndex,
			);
		}
	}
	return options.returnAll ? records : records.slice(0, options.limit);
}

/**
 * Reads a list in any shape and, for Return All (or a limit beyond the first page), follows the
 * pagination hints the service gave (`collectList`).
 * `plural`: the resource's plural name, the key a wrapped list is most likely under (`threats`).
 */
export async function fetchList(
	ctx: ServiceContext,
	profile: ServiceProfile,
	request: ServiceRequest,
	options: { plural: string; returnAll: boolean; limit: number },
): Promise<IDataObject[]> {
	const readPage = pageReader(ctx, profile, request, options.plural);
	return await collectList(readPage, { ...options, itemIndex: request.itemIndex });
}
