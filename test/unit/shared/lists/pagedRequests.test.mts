import { describe, expect, it } from 'vitest';

import { listPages, type PageRef } from '../../../../nodes/shared/lists/pagedRequests.ts';

describe('list pages', () => {
	it('follows the next links from where it starts, and ends the list at a link that repeats one already read', async () => {
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
		const pages = [];
		for await (const page of listPages(readPage)) pages.push(page);
		expect(pages).toEqual([
			{ at: undefined, records: [{ id: 'first' }], next: { url: 'p2' } },
			{ at: { url: 'p2' }, records: [{ id: 'p2' }], next: { url: 'p3', qs: { a: 1 } } },
			{ at: { url: 'p3', qs: { a: 1 } }, records: [{ id: 'p3' }], next: undefined },
		]);
		expect(asked).toHaveLength(3);

		const fromP3 = [];
		for await (const page of listPages(readPage, { url: 'p3', qs: { a: 1 } })) fromP3.push(page.at);
		expect(fromP3).toEqual([{ url: 'p3', qs: { a: 1 } }, { url: 'p2' }]);
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
