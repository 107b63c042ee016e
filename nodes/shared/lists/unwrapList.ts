import type { IDataObject } from 'n8n-workflow';

import { asRecord, isRecord, numberOf, textOf } from './recordFields';
import { readHeader } from '../http/headers';

/**
 * Where a page of a list is: the URL to send the request to and the query to add to it. Plain JSON
 * (a poll trigger keeps one in its static data).
 */
export interface PageRef {
	/** Absolute or relative URL given by the service. */
	url?: string;
	/** Query parameters to add to the same request. */
	qs?: IDataObject;
}

/** A list as one answer gives it: its records and what the answer says of the page after it. */
export interface UnwrappedList {
	records: IDataObject[];
	next?: PageRef;
	/** A more-pages signal with nothing to follow, in words (`"has_more": true`): the list would be cut short. */
	unreadable?: string;
}

const LIST_KEYS = ['data', 'items', 'results', 'records', 'list'];
/** Fields holding the next page's link, page number or cursor. */
const NEXT_KEYS = [
	'next',
	'next_page_url',
	'nextPageUrl',
	'nextPage',
	'next_page',
	'nextLink',
	'@odata.nextLink',
	'next_url',
	'nextUrl',
	'next_link',
];
const CURSOR_KEYS = ['nextCursor', 'next_cursor', 'cursor'];
/** A token field of the answer and the query parameter it goes back in. */
const TOKEN_KEYS: Array<[string, string]> = [
	['nextPageToken', 'pageToken'],
	['next_page_token', 'page_token'],
];
const MORE_KEYS = ['has_more', 'hasMore', 'has_next', 'hasNext', 'has_next_page', 'hasNextPage'];
const PAGE_KEYS = ['page', 'currentPage', 'current_page'];
const PAGE_COUNT_KEYS = [
	'totalPages',
	'total_pages',
	'pageCount',
	'page_count',
	'last_page',
	'lastPage',
];
const PAGE_SIZE_KEYS = ['per_page', 'perPage', 'page_size', 'pageSize', 'limit'];
const TOTAL_KEYS = ['total', 'totalCount', 'total_count', 'count'];
/** Objects of an answer that may hold its hints, besides the answer itself. */
const HINT_HOLDERS = [
	'meta',
	'pagination',
	'links',
	'_links',
	'paging',
	'pageInfo',
	'response_metadata',
];

/** What an answer says of the page after it: where it is, that there is none, or a signal it cannot follow. */
type Hint = { next: PageRef } | { end: true } | { unreadable: string };

function findList(
	body: IDataObject,
	plural: string,
): { list: unknown[]; holder: IDataObject } | undefined {
	const named = [plural, ...LIST_KEYS].map((key) => body[key]);
	const arrays = Object.values(body).filter(Array.isArray);
	const list = named.find(Array.isArray) ?? (arrays.length === 1 ? arrays[0] : undefined);
	if (list) return { list: list as unknown[], holder: body };
	// Else the list inside an object under one of those keys, e.g. `{ "data": { "items": [...] } }`.
	for (const inner of named.filter(isRecord)) {
		const nested = findList(inner, plural);
		if (nested) return nested;
	}
	return undefined;
}

/** `<https://…?page=2>; rel="next"` (RFC 8288). */
export function nextFromLinkHeader(link: string | undefined): string | undefined {
	for (const part of (link ?? '').split(',')) {
		const match = /<([^>]+)>\s*;(.*)/.exec(part.trim());
		if (match && /rel="?([^";]*\s)?next(\s[^";]*)?"?/i.test(match[2])) return match[1];
	}
	return undefined;
}

function first(holder: IDataObject, keys: string[]): number | undefined {
	return keys.map((key) => numberOf(holder[key])).find((value) => value !== undefined);
}

const isPageNumber = (value: number | undefined): value is number =>
	value !== undefined && Number.isSafeInteger(value) && value > 0;

/** A `next`-like field: a link, a page number, a cursor, `null` (no next page), or unreadable. */
function nextOf(key: string, value: unknown): Hint | undefined {
	if (value === undefined) return undefined;
	if (value === null || value === false || value === '') return { end: true };
	if (typeof value === 'string') {
		if (/^(https?:)?\//.test(value) || value.includes('?')) return { next: { url: value } };
		if (key !== 'next' && isPageNumber(numberOf(value)))
			return { next: { qs: { page: numberOf(value) } } };
		return { next: { qs: { cursor: value } } };
	}
	if (typeof value === 'number' && isPageNumber(value)) return { next: { qs: { page: value } } };
	if (isRecord(value) && typeof value.href === 'string') return nextOf(key, value.href);
	return { unreadable: `"${key}": ${JSON.stringify(value)}` };
}

/** The page after the one in `holder` by its position (page number, offset) and size, if it tells. */
function byPosition(holder: IDataObject, count: number): Hint | undefined {
	const page = first(holder, PAGE_KEYS);
	const total = first(holder, TOTAL_KEYS);
	const pageCount =
		first(holder, PAGE_COUNT_KEYS) ??
		(total === undefined ? undefined : Math.ceil(total / (first(holder, PAGE_SIZE_KEYS) ?? NaN)));
	if (isPageNumber(page) && pageCount !== undefined && !Number.isNaN(pageCount)) {
		return page < pageCount ? { next: { qs: { page: page + 1 } } } : { end: true };
	}
	const offset = numberOf(holder.offset);
	if (offset !== undefined && total !== undefined) {
		return offset + count < total ? { next: { qs: { offset: offset + count } } } : { end: true };
	}
	return undefined;
}

/**
 * What `holder` says of the next page; undefined when it holds no hint. A `has_more` that is true
 * is followed by a link, cursor, offset or page number, else it is unreadable.
 */
function hintIn(holder: IDataObject, count: number): Hint | undefined {
	const moreKey = MORE_KEYS.find((key) => holder[key] !== undefined && holder[key] !== null);
	const more = moreKey === undefined ? undefined : String(holder[moreKey]).toLowerCase();
	if (more === 'false') return { end: true };

	const hints = [
		...NEXT_KEYS.map((key) => nextOf(key, holder[key])),
		...TOKEN_KEYS.map(([key, param]) => {
			const token = textOf(holder[key]);
			return token === undefined ? undefined : { next: { qs: { [param]: token } } };
		}),
		...CURSOR_KEYS.map((key) => {
			const cursor = textOf(holder[key]);
			return cursor === undefined ? undefined : { next: { qs: { cursor } } };
		}),
	].filter((hint) => hint !== undefined);
	const named = hints.find((hint) => !('end' in hint));
	if (named) return named;
	const position = byPosition(holder, count);
	if (moreKey === undefined) return hints[0] ?? position;

	const unreadable = { unreadable: `"${moreKey}": ${JSON.stringify(holder[moreKey])}` };
	if (more !== 'true') return unreadable;
	if (position) return 'next' in position ? position : unreadable;
	const offset = numberOf(holder.offset);
	if (offset !== undefined) return { next: { qs: { offset: offset + count } } };
	const page = first(holder, PAGE_KEYS);
	return isPageNumber(page) ? { next: { qs: { page: page + 1 } } } : unreadable;
}

/** The hint of the first holder that has one: the list's own object first, then the answer's. */
function hintOf(holders: IDataObject[], count: number): Hint | undefined {
	for (const holder of holders) {
		const meta = isRecord(holder.meta) ? holder.meta.pagination : undefined;
		for (const candidate of [holder, ...HINT_HOLDERS.map((key) => holder[key]), meta]) {
			const hint = isRecord(candidate) ? hintIn(candidate, count) : undefined;
			if (hint) return hint;
		}
	}
	return undefined;
}

/**
 * Reads a list response in any of the shapes a service may use: a bare array, an object holding
 * the array (under the resource's plural name, `data`, `items`, `results`, … or its only array,
 * also one level down), with or without pagination hints next to the list, in the answer (or its
 * `meta`, `pagination`, `links`, …) or in a `Link` header.
 */
export function unwrapList(
	body: unknown,
	plural: string,
	headers: IDataObject = {},
): UnwrappedList | undefined {
	const linkNext = nextFromLinkHeader(readHeader(headers, 'link'));
	const fromLink = linkNext === undefined ? undefined : { url: linkNext };
	if (Array.isArray(body)) return { records: body.map(asRecord), next: fromLink };
	if (!isRecord(body)) return undefined;
	const found = findList(body, plural);
	if (!found) return undefined;
	const records = found.list.map(asRecord);
	const holders = found.holder === body ? [body] : [found.holder, body];
	const hint = hintOf(holders, records.length);
	if (hint === undefined) return { records, next: fromLink };
	if ('unreadable' in hint) return { records, unreadable: hint.unreadable };
	return { records, next: 'next' in hint ? hint.next : undefined };
}
