import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import { expect } from 'vitest';

/**
 * A model service that serves a list of records in pages, in one of the pagination styles the
 * list reader accepts, optionally with a fault: a hint naming a page already served (a link
 * back, a self-link, a repeated cursor), a paging parameter it ignores, or a more-pages signal
 * that names nothing to follow. Shared by the unit and the HTTP property tests of the page walk,
 * with the properties they check (readsWholeList, failsOnFault).
 */

export const PAGE_STYLES = [
	'absoluteLink',
	'relativeLink',
	'linkHeader',
	'laravel',
	'odata',
	'cursor',
	'nestedCursor',
	'hasMoreCursor',
	'pageToken',
	'pageNumber',
	'numericNext',
	'offsetTotal',
	'hasMoreOffset',
] as const;
export type PageStyle = (typeof PAGE_STYLES)[number];

/** Styles that name the next page by its position: a page can only be empty at the list's end. */
const OFFSET_STYLES: PageStyle[] = ['offsetTotal', 'hasMoreOffset'];
/** Styles whose hint can point at any page (by link, cursor, token or number). */
const POINTING_STYLES = PAGE_STYLES.filter(
	(style) => !OFFSET_STYLES.includes(style) && style !== 'pageNumber',
);

export type PageFault =
	| { kind: 'pointsBack'; at: number; to: number }
	| { kind: 'ignoresParam' }
	| { kind: 'unreadable'; at: number; signal: 'has_more' | 'next' };

export interface PagedList {
	style: PageStyle;
	pages: IDataObject[][];
	/** The user's query parameters (names the paging never uses). */
	query: Array<[string, string]>;
	/** Whether links repeat the user's query. */
	linksKeepQuery: boolean;
	fault?: PageFault;
}

export interface ModelAnswer {
	status: number;
	headers: Record<string, string>;
	body: unknown;
}

const PATH = '/v1/threats';

/** The paging parameter of a style and its value for page `index` (0-based). */
function pagingParam(list: PagedList, index: number): [string, string] {
	const { style, pages } = list;
	if (OFFSET_STYLES.includes(style)) {
		const offset = pages.slice(0, index).reduce((sum, page) => sum + page.length, 0);
		return ['offset', String(offset)];
	}
	if (['cursor', 'nestedCursor', 'hasMoreCursor'].includes(style)) return ['cursor', `c${index}`];
	if (style === 'pageToken') return ['pageToken', `t${index}`];
	if (style === 'odata') return ['$skiptoken', String(index)];
	return ['page', String(index + 1)];
}

/** The page a request asks for, from its query; undefined when the query names no page of the list. */
function pageAsked(list: PagedList, url: URL): number | undefined {
	const [name] = pagingParam(list, 0);
	const value = url.searchParams.get(name);
	if (value === null) return 0;
	if (list.fault?.kind === 'ignoresParam') return 0;
	const index = list.pages.findIndex((_, candidate) => pagingParam(list, candidate)[1] === value);
	return index === -1 ? undefined : index;
}

function linkTo(
	list: PagedList,
	origin: string,
	index: number,
	form: 'absolute' | 'path' | 'query',
) {
	const query = new URLSearchParams(list.linksKeepQuery ? list.query : []);
	query.set(...pagingParam(list, index));
	if (form === 'query') return `?${query}`;
	return `${form === 'absolute' ? origin : ''}${PATH}?${query}`;
}

/** The service's answer to `url` (path and query as sent). */
export function answerOf(list: PagedList, origin: string, url: URL): ModelAnswer {
	const ok = (body: unknown, headers: Record<string, string> = {}) => ({
		status: 200,
		headers,
		body,
	});
	const index = pageAsked(list, url);
	if (index === undefined) return { status: 400, headers: {}, body: { error: 'unknown page' } };
	const { style, pages, fault } = list;
	const records = pages[index];
	const last = index === pages.length - 1;
	let target: number | undefined = last ? undefined : index + 1;
	if (fault?.kind === 'pointsBack' && fault.at === index) target = fault.to;
	if (fault?.kind === 'unreadable' && fault.at === index) {
		return ok(
			fault.signal === 'has_more'
				? { data: records, has_more: true }
				: { data: records, next: true },
		);
	}
	const has = target !== undefined;
	const next = (form: 'absolute' | 'path' | 'query') =>
		target === undefined ? null : linkTo(list, origin, target, form);
	const param = target === undefined ? null : pagingParam(list, target)[1];
	const offset = Number(pagingParam(list, index)[1]);
	switch (style) {
		case 'absoluteLink':
			return ok({ data: records, next: next('absolute') });
		case 'relativeLink':
			return ok({ threats: records, links: { next: next('path') } });
		case 'linkHeader':
			return ok(records, has ? { link: `<${next('absolute')}>; rel="next"` } : {});
		case 'laravel':
			return ok({ data: records, current_page: index + 1, next_page_url: next('query') });
		case 'odata':
			return ok({ value: records, '@odata.nextLink': next('absolute') ?? undefined });
		case 'cursor':
			return ok({ data: records, next_cursor: param });
		case 'nestedCursor':
			return ok({ data: { threats: records, next_cursor: param } });
		case 'hasMoreCursor':
			return ok({ data: records, has_more: has, next_cursor: param ?? 'c_unused' });
		case 'pageToken':
			return ok({ items: records, nextPageToken: param ?? undefined });
		case 'pageNumber': {
			// A service that ignores ?page= says it served page 1.
			const page = fault?.kind === 'ignoresParam' ? 1 : index + 1;
			return ok({ data: records, page, totalPages: pages.length });
		}
		case 'numericNext':
			return ok({ data: records, next: param === null ? null : Number(param) });
		case 'offsetTotal': {
			const total = pages.reduce((sum, page) => sum + page.length, 0);
			return ok({ items: records, offset, limit: 3, total });
		}
		case 'hasMoreOffset':
			return ok({ data: records, has_more: has, offset });
	}
}

const queryArbitrary = fc.uniqueArray(
	fc.tuple(
		fc.constantFrom('status', 'severity', 'site_id', 'sort'),
		fc.constantFrom('open', 'high', 'a b', 'x/y&z', '1'),
	),
	{ maxLength: 2, selector: ([name]) => name },
);

/** Page sizes, empty pages included (first, middle, last). */
const sizesArbitrary = fc.array(fc.nat({ max: 3 }), { minLength: 1, maxLength: 6 });

function split(sizes: number[]): IDataObject[][] {
	let next = 1;
	return sizes.map((size) => Array.from({ length: size }, () => ({ id: `thr_${next++}` })));
}

/** A list served without a fault: every record can be read, in order. */
export const wholeList: fc.Arbitrary<PagedList> = fc
	.record({
		style: fc.constantFrom(...PAGE_STYLES),
		sizes: sizesArbitrary,
		query: queryArbitrary,
		linksKeepQuery: fc.boolean(),
	})
	.map(({ style, sizes, query, linksKeepQuery }) => {
		// Pages named by their position cannot be empty before the list's end.
		const kept = OFFSET_STYLES.includes(style) ? sizes.filter((size) => size > 0) : sizes;
		return { style, pages: split(kept.length > 0 ? kept : [0]), query, linksKeepQuery };
	});

/** A list served with a fault (see PageFault), when the list has the pages it needs. */
export const faultyList: fc.Arbitrary<PagedList> = fc
	.tuple(wholeList, fc.nat(), fc.nat(), fc.constantFrom('pointsBack', 'ignoresParam', 'unreadable'))
	.map(([list, a, b, kind]): PagedList => {
		const at = a % list.pages.length;
		if (kind === 'unreadable') {
			return { ...list, fault: { kind, at, signal: b % 2 === 0 ? 'has_more' : 'next' } };
		}
		if (kind === 'pointsBack' && POINTING_STYLES.includes(list.style)) {
			return { ...list, fault: { kind, at, to: b % (at + 1) } };
		}
		return { ...list, fault: { kind: 'ignoresParam' } };
	});

/** Whether the model's fault is met by a reader that reads every page (Return All). */
export function faultMet(list: PagedList): boolean {
	if (list.fault?.kind === 'ignoresParam') return list.pages.length > 1;
	return list.fault !== undefined;
}

export const modelPath = PATH;

/** What reading a list gave: the records' ids or the failure, and every URL the service received. */
export interface ListRead {
	error?: Error;
	ids: unknown[];
	sent: URL[];
}
export type ReadList = (list: PagedList, returnAll: boolean, limit: number) => Promise<ListRead>;

/** What every read keeps, whatever the service answered. */
function checkRead(list: PagedList, returnAll: boolean, limit: number, result: ListRead): void {
	const all = list.pages.flat().map((record) => record.id);
	// The user's query parameters on every request, each once with the user's value.
	for (const url of result.sent) {
		expect(url.pathname).toBe(PATH);
		for (const [name, value] of list.query) expect(url.searchParams.getAll(name)).toEqual([value]);
	}
	if (result.error) {
		// Every failure is a node error that says why.
		expect(result.error.name).toBe('NodeApiError');
		expect(result.error.message).toMatch(/already read|goes on/);
		return;
	}
	// No record twice, none dropped: the list (or its first `limit` records) in order.
	expect(result.ids).toEqual(returnAll ? all : all.slice(0, limit));
}

/** A list served without a fault is read whole (Return All), in order, one request per page. */
export const readsWholeList = (read: ReadList) =>
	fc.asyncProperty(wholeList, async (list) => {
		const result = await read(list, true, 50);
		expect(result.error).toBeUndefined();
		checkRead(list, true, 50, result);
		expect(result.sent).toHaveLength(list.pages.length);
	});

/** A fault met by the read fails it with a node error naming the cause, having output nothing twice. */
export const failsOnFault = (read: ReadList) =>
	fc.asyncProperty(
		faultyList,
		fc.boolean(),
		fc.integer({ min: 1, max: 20 }),
		async (list, returnAll, limit) => {
			const result = await read(list, returnAll, limit);
			checkRead(list, returnAll, limit, result);
			if (returnAll && faultMet(list)) {
				const cause = list.fault?.kind === 'unreadable' ? 'goes on' : 'already read';
				expect(result.error?.message).toContain(cause);
			}
		},
	);
