import { describe, expect, it } from 'vitest';

import { nextFromLinkHeader, unwrapList } from '../../../../nodes/shared/lists/unwrapList.ts';

const a = { id: 'thr_1' };
const b = { id: 'thr_2' };

describe('unwrapList: where the records are', () => {
	it('reads a bare array', () => {
		expect(unwrapList([a, b], 'threats')).toEqual({ records: [a, b], next: undefined });
	});

	it.each(['threats', 'data', 'items', 'results'])(
		'reads an object holding the array under "%s"',
		(key) => {
			expect(unwrapList({ [key]: [a, b], total: 2 }, 'threats')?.records).toEqual([a, b]);
		},
	);

	it("reads the resource's plural name first when the object holds several arrays", () => {
		expect(
			unwrapList({ warnings: [{ id: 'w' }], threats: [a], data: [b] }, 'threats')?.records,
		).toEqual([a]);
	});

	it('reads the only array of an object under an unknown key', () => {
		expect(unwrapList({ entries: [a, b], count: 2 }, 'threats')?.records).toEqual([a, b]);
	});

	it('reads an array one level down (`{ data: { threats: [...] } }`)', () => {
		expect(unwrapList({ data: { threats: [a], count: 1 } }, 'threats')?.records).toEqual([a]);
	});

	it('reads an empty list as no records', () => {
		expect(unwrapList([], 'threats')).toEqual({ records: [], next: undefined });
		expect(unwrapList({ threats: [] }, 'threats')?.records).toEqual([]);
	});

	it('wraps entries that are not objects, so each still becomes an item', () => {
		expect(unwrapList(['thr_1', 2], 'threats')?.records).toEqual([
			{ value: 'thr_1' },
			{ value: 2 },
		]);
	});

	it.each([
		['a string', 'Service unavailable'],
		['null', null],
		['a number', 42],
		['an object without an array', { id: 'thr_1', status: 'open' }],
		['an object with two unknown arrays', { one: [a], two: [b] }],
	])('gives up on %s', (_label, body) => {
		expect(unwrapList(body, 'threats')).toBeUndefined();
	});
});

describe('unwrapList: pagination hints', () => {
	it('takes an absolute or relative `next` link', () => {
		expect(
			unwrapList({ data: [a], next: 'https://api.example/v1/threats?page=2' }, 'threats')?.next,
		).toEqual({
			url: 'https://api.example/v1/threats?page=2',
		});
		expect(unwrapList({ data: [a], next: '/v1/threats?page=2' }, 'threats')?.next).toEqual({
			url: '/v1/threats?page=2',
		});
	});

	it('takes a `next` that is a bare token as a cursor', () => {
		expect(unwrapList({ data: [a], next: 'abc123' }, 'threats')?.next).toEqual({
			qs: { cursor: 'abc123' },
		});
	});

	it.each(['nextCursor', 'next_cursor'])('takes `%s` as a cursor', (key) => {
		expect(unwrapList({ threats: [a], [key]: 'c2' }, 'threats')?.next).toEqual({
			qs: { cursor: 'c2' },
		});
	});

	it('asks for the following page while page < totalPages, and stops on the last', () => {
		expect(unwrapList({ data: [a], page: 1, totalPages: 3 }, 'threats')?.next).toEqual({
			qs: { page: 2 },
		});
		expect(unwrapList({ data: [a], page: '2', total_pages: '3' }, 'threats')?.next).toEqual({
			qs: { page: 3 },
		});
		expect(unwrapList({ data: [a], page: 3, totalPages: 3 }, 'threats')?.next).toBeUndefined();
	});

	it('reads hints held in `meta`, `pagination` or `links`', () => {
		expect(unwrapList({ data: [a], meta: { page: 1, totalPages: 2 } }, 'threats')?.next).toEqual({
			qs: { page: 2 },
		});
		expect(unwrapList({ data: [a], pagination: { nextCursor: 'n' } }, 'threats')?.next).toEqual({
			qs: { cursor: 'n' },
		});
		expect(
			unwrapList({ data: [a], links: { next: { href: 'https://x/threats?p=2' } } }, 'threats')
				?.next,
		).toEqual({
			url: 'https://x/threats?p=2',
		});
	});

	it('has no next page for `next: null` on the last page', () => {
		expect(
			unwrapList({ data: [a], page: 2, totalPages: 2, next: null }, 'threats')?.next,
		).toBeUndefined();
	});

	it('follows a Link header with a bare array and with a wrapped list', () => {
		const headers = {
			link: '<https://api.example/v1/threats?page=2>; rel="next", <https://api.example/v1/threats?page=5>; rel="last"',
		};
		expect(unwrapList([a], 'threats', headers)?.next).toEqual({
			url: 'https://api.example/v1/threats?page=2',
		});
		expect(unwrapList({ threats: [a] }, 'threats', headers)?.next).toEqual({
			url: 'https://api.example/v1/threats?page=2',
		});
	});

	it('prefers the body hint over the Link header', () => {
		const headers = { link: '<https://api.example/v1/threats?page=9>; rel="next"' };
		expect(unwrapList({ data: [a], page: 1, totalPages: 2 }, 'threats', headers)?.next).toEqual({
			qs: { page: 2 },
		});
	});
});

describe('unwrapList: the hints of issue 38, case 6', () => {
	it("reads a hint next to a list one level down, before the answer's own", () => {
		expect(unwrapList({ data: { threats: [a], next_cursor: 'c2' } }, 'threats')?.next).toEqual({
			qs: { cursor: 'c2' },
		});
		expect(
			unwrapList({ data: { items: [a] }, meta: { pagination: { nextCursor: 'n' } } }, 'threats')
				?.next,
		).toEqual({ qs: { cursor: 'n' } });
	});

	it('reads has_more with an offset, and an offset with a total', () => {
		expect(unwrapList({ data: [a, b], has_more: true, offset: 4 }, 'threats')?.next).toEqual({
			qs: { offset: 6 },
		});
		expect(unwrapList({ data: [a, b], offset: 0, total: 5 }, 'threats')?.next).toEqual({
			qs: { offset: 2 },
		});
		expect(unwrapList({ data: [a], offset: 4, total: 5 }, 'threats')?.next).toBeUndefined();
		expect(unwrapList({ data: [a], page: 2, per_page: 2, total: 5 }, 'threats')?.next).toEqual({
			qs: { page: 3 },
		});
	});

	it('ends at has_more: false even when a cursor is given', () => {
		const list = unwrapList({ data: [a], has_more: false, next_cursor: 'x' }, 'threats');
		expect(list).toEqual({ records: [a], next: undefined });
	});

	it('reads nextPageToken, @odata.nextLink, a numeric next and a HAL link', () => {
		expect(unwrapList({ items: [a], nextPageToken: 't2' }, 'threats')?.next).toEqual({
			qs: { pageToken: 't2' },
		});
		expect(
			unwrapList({ value: [a], '@odata.nextLink': 'https://x/threats?$skip=2' }, 'threats')?.next,
		).toEqual({ url: 'https://x/threats?$skip=2' });
		expect(unwrapList({ data: [a], next: 3 }, 'threats')?.next).toEqual({ qs: { page: 3 } });
		expect(
			unwrapList({ data: [a], _links: { next: { href: '/threats?p=2' } } }, 'threats')?.next,
		).toEqual({
			url: '/threats?p=2',
		});
	});

	it.each([
		[{ data: [a], has_more: true }, '"has_more": true'],
		[{ data: [a], hasMore: 'yes' }, '"hasMore": "yes"'],
		[{ data: [a], next: true }, '"next": true'],
		[{ data: [a], next: { page: 2 } }, '"next": {"page":2}'],
		[{ data: [a], next: -1 }, '"next": -1'],
		[{ data: [a], page: 3, totalPages: 3, has_more: true }, '"has_more": true'],
	])('calls a more-pages signal it cannot follow unreadable: %j', (body, signal) => {
		expect(unwrapList(body, 'threats')).toEqual({ records: [a], unreadable: signal });
	});
});

describe('nextFromLinkHeader', () => {
	it('finds rel=next among other relations, quoted or not', () => {
		expect(
			nextFromLinkHeader('<https://x/a?page=1>; rel="prev", <https://x/a?page=3>; rel=next'),
		).toBe('https://x/a?page=3');
		expect(nextFromLinkHeader('<https://x/a?page=3>; rel="next last"')).toBe('https://x/a?page=3');
	});

	it('returns undefined without a next relation', () => {
		expect(nextFromLinkHeader('<https://x/a?page=1>; rel="prev"')).toBeUndefined();
		expect(nextFromLinkHeader(undefined)).toBeUndefined();
	});
});
