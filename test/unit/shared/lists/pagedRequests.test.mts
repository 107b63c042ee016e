import { describe, expect, it } from 'vitest';

import { listPages, type PageRef } from '../../../../nodes/shared/lists/pagedRequests.ts';

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
