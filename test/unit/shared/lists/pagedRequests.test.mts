import { NodeApiError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import type { ServiceRequest } from '../../../../nodes/shared/http/serviceTypes.ts';
import {
	collectList,
	listPageOf,
	listPages,
	pageKey,
	pageRequestOf,
	type ListPage,
	type PageReader,
	type PageRef,
} from '../../../../nodes/shared/lists/pagedRequests.ts';
import { node, profile } from '../../../support/lists/threatsReader.mts';

describe('list pages', () => {
	it('follows the next links from where it starts, and fails at a link to a page already read', async () => {
		const asked: Array<PageRef | undefined> = [];
		const links: Record<string, PageRef | undefined> = {
			first: { url: 'p2' },
			p2: { url: 'p3', qs: { a: 1 } },
			p3: { url: 'p2' },
		};
		const readPage = async (at: PageRef | undefined) => {
			asked.push(at);
			return { records: [{ id: at?.url ?? 'first' }], next: links[at?.url ?? 'first'] };
		};
		const pages: unknown[] = [];
		await expect(async () => {
			for await (const page of listPages(readPage)) pages.push(page);
		}).rejects.toThrow('The service named a page of the list already read (p2)');
		expect(pages).toEqual([
			{ at: undefined, records: [{ id: 'first' }], next: { url: 'p2' } },
			{ at: { url: 'p2' }, records: [{ id: 'p2' }], next: { url: 'p3', qs: { a: 1 } } },
		]);
		expect(asked).toHaveLength(3);

		const fromP3: unknown[] = [];
		await expect(async () => {
			for await (const page of listPages(readPage, { url: 'p3', qs: { a: 1 } }))
				fromP3.push(page.at);
		}).rejects.toThrow('already read (p3?a=1)');
		expect(fromP3).toEqual([{ url: 'p3', qs: { a: 1 } }]);
	});

	it('tells pages apart by their link and query', async () => {
		const readPage = async (at: PageRef | undefined) => ({
			records: [],
			next:
				at === undefined
					? { url: 'x', qs: { page: 2 } }
					: at.qs?.page === 2
						? { url: 'x', qs: { page: 3 } }
						: undefined,
		});
		const pages = [];
		for await (const page of listPages(readPage)) pages.push(page.at);
		expect(pages).toEqual([
			undefined,
			{ url: 'x', qs: { page: 2 } },
			{ url: 'x', qs: { page: 3 } },
		]);
	});
});

const request: ServiceRequest = {
	method: 'GET',
	path: '/threats',
	qs: { status: 'open', per_page: '2' },
};
const answer = (body: unknown, url = 'https://api.example/v1/threats') => ({
	url,
	body,
	headers: {},
});

describe('pageKey', () => {
	it('is the same for the same parameters in any order, in the URL or the query', () => {
		expect(pageKey({ url: 'https://x/v1/t?b=2&a=1' })).toBe(
			pageKey({ url: 'https://x/v1/t?a=1&b=2' }),
		);
		expect(pageKey({ url: 'https://x/v1/t?a=1', qs: { b: 2 } })).toBe(
			pageKey({ url: 'https://x/v1/t', qs: { b: '2', a: '1' } }),
		);
		expect(pageKey({ url: 'https://x/v1/t', qs: { a: 1 } })).not.toBe(
			pageKey({ url: 'https://x/v1/t' }),
		);
		expect(pageKey({ url: 'https://x/v1/t' })).not.toBe(pageKey({ url: 'https://x/v1/u' }));
	});
});

describe('listPageOf: the next page carries the list query', () => {
	it("adds the query a link omits, and a link's own value wins", () => {
		const page = listPageOf(
			node,
			profile,
			answer({ data: [], next: '?page=2&per_page=5' }),
			request,
			'threats',
		);
		expect(page.next).toEqual({
			url: 'https://api.example/v1/threats?page=2&per_page=5',
			qs: { status: 'open' },
		});
		expect(pageRequestOf(request, page.next)).toMatchObject({
			url: 'https://api.example/v1/threats?page=2&per_page=5',
			qs: { status: 'open' },
		});
	});

	it('puts a cursor or page in place of its own parameter in the URL of the page it came on', () => {
		const at = 'https://api.example/v1/threats?page=2&x=%2B1';
		const pageRequest = pageRequestOf(request, { url: at });
		const page = listPageOf(
			node,
			profile,
			answer({ data: [], page: 2, totalPages: 3 }, at),
			pageRequest,
			'threats',
			request.qs,
		);
		expect(page.next).toEqual({
			url: 'https://api.example/v1/threats?x=%2B1',
			qs: { status: 'open', per_page: '2', page: 3 },
		});
	});

	it("adds the list query to a remembered link that lacks it (a poll trigger's memory from before)", () => {
		expect(pageRequestOf(request, { url: 'https://api.example/v1/threats?page=3' }).qs).toEqual({
			status: 'open',
			per_page: '2',
		});
	});
});

describe('collectList', () => {
	const reader = (pages: Record<string, ListPage>): PageReader =>
		Object.assign(async (at: PageRef | undefined) => pages[at?.url ?? 'first'], { node });

	it('follows an empty page that names a next page', async () => {
		const readPage = reader({
			first: { records: [{ id: 1 }], next: { url: 'p2' } },
			p2: { records: [], next: { url: 'p3' } },
			p3: { records: [{ id: 2 }] },
		});
		expect(await collectList(readPage, { plural: 'threats', returnAll: true, limit: 0 })).toEqual([
			{ id: 1 },
			{ id: 2 },
		]);
	});

	it('fails on a more-pages signal it cannot follow only when it needs the next page', async () => {
		const cannotContinue = new Error('goes on');
		const readPage = reader({ first: { records: [{ id: 1 }, { id: 2 }], cannotContinue } });
		expect(await collectList(readPage, { plural: 'threats', returnAll: false, limit: 2 })).toEqual([
			{ id: 1 },
			{ id: 2 },
		]);
		await expect(
			collectList(readPage, { plural: 'threats', returnAll: true, limit: 0 }),
		).rejects.toBe(cannotContinue);
	});

	it('fails with a node error before yielding a page whose next page was read (a cursor the service ignores)', async () => {
		const readPage = reader({
			first: { records: [{ id: 1 }], next: { url: 'p', qs: { cursor: 'c1' } } },
			p: { records: [{ id: 1 }], next: { url: 'p', qs: { cursor: 'c1' } } },
		});
		const error = await collectList(readPage, {
			plural: 'threats',
			returnAll: false,
			limit: 2,
		}).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as Error).message).toBe(
			'The service named a page of the list already read (p?cursor=c1), so the list stops here rather than repeat records',
		);
	});
});
