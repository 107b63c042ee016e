import type { IDataObject } from 'n8n-workflow';

import { asRecord, isRecord, numberOf, textOf } from './recordFields';
import { readHeader } from '../http/headers';

/** Where a page of a list is: the link or query the service gave for it (none for the first page). */
export interface PageRef {
	/** Absolute or relative URL given by the service. */
	url?: string;
	/** Query parameters to add to the same request. */
	qs?: IDataObject;
}

const LIST_KEYS = ['data', 'items', 'results', 'records', 'list'];
const CURSOR_KEYS = ['nextCursor', 'next_cursor', 'cursor'];

function findList(body: IDataObject, plural: string): unknown[] | undefined {
	const named = [plural, ...LIST_KEYS].map((key) => body[key]);
	const arrays = Object.values(body).filter(Array.isArray);
	const list = named.find(Array.isArray) ?? (arrays.length === 1 ? arrays[0] : undefined);
	if (list) return list as unknown[];
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

function nextFromBody(body: IDataObject): PageRef | undefined {
	const holders = [body, body.meta, body.pagination, body.links, body.paging].filter(isRecord);
	for (const holder of holders) {
		const next = holder.next ?? holder.next_page_url ?? holder.nextPage;
		if (typeof next === 'string' && next !== '') {
			return /^(https?:)?\//.test(next) || next.includes('?')
				? { url: next }
				: { qs: { cursor: next } };
		}
		if (isRecord(next) && typeof next.href === 'string') return { url: next.href };
		const cursor = CURSOR_KEYS.map((key) => holder[key]).find(
			(value) => textOf(value) !== undefined,
		);
		if (cursor !== undefined) return { qs: { cursor } };
		const page = numberOf(holder.page ?? holder.currentPage ?? holder.current_page);
		const total = numberOf(
			holder.totalPages ?? holder.total_pages ?? holder.pageCount ?? holder.last_page,
		);
		if (page !== undefined && total !== undefined) {
			return page < total ? { qs: { page: page + 1 } } : undefined;
		}
	}
	return undefined;
}

/**
 * Reads a list response in any of the shapes a service may use: a bare array, an object holding
 * the array (under the resource's plural name, `data`, `items`, `results`, … or its only array),
 * with or without pagination hints in the body or a `Link` header.
 */
export function unwrapList(
	body: unknown,
	plural: string,
	headers: IDataObject = {},
): { records: IDataObject[]; next?: PageRef } | undefined {
	const linkNext = nextFromLinkHeader(readHeader(headers, 'link'));
	const fromLink = linkNext === undefined ? undefined : { url: linkNext };
	if (Array.isArray(body)) return { records: body.map(asRecord), next: fromLink };
	if (!isRecord(body)) return undefined;
	const list = findList(body, plural);
	if (!list) return undefined;
	return { records: list.map(asRecord), next: nextFromBody(body) ?? fromLink };
}
