import type { IDataObject } from 'n8n-workflow';
import { afterEach, describe, expect, it } from 'vitest';

import { chain, packageNode, runWorkflow, startNode } from '../../support/harness/runWorkflow.mts';
import {
	startScriptedService,
	type ScriptedAnswer,
	type ScriptedService,
} from '../../support/harness/scriptedService.mts';

/**
 * Get Many threats with Return All over a service that answers as each test scripts it: the
 * pages it names, the records output, and the query every request carried (issue 38, cases 4-6).
 */

let service: ScriptedService | undefined;
afterEach(async () => {
	await service?.close();
	service = undefined;
});

const threat = (id: string, status = 'open') => ({ id, status });

async function getManyThreats(
	answer: (url: URL, origin: string) => ScriptedAnswer,
	queryParameters: Array<{ name: string; value: string }> = [],
) {
	const started = await startScriptedService((request) =>
		answer(new URL(request.url, started.origin), started.origin),
	);
	service = started;
	const node = packageNode(
		'securityService',
		{
			resource: 'threat',
			operation: 'getAll',
			returnAll: true,
			queryParameters: { parameters: queryParameters },
		},
		{ name: 'Threats', credentials: ['securityServiceApi'] },
	);
	const run = await runWorkflow(chain(startNode(), node), {
		credentials: {
			securityServiceApi: {
				baseUrl: `${started.origin}/v1`,
				apiKey: 'sec_pages',
				plan: 'enterprise',
			},
		},
	});
	const error = run.nodeError('Threats') as (Error & { description?: string }) | undefined;
	const ids = error ? [] : run.output('Threats').map((item) => (item.json as IDataObject).id);
	const queries = started.requests.map((request) => new URL(request.url, started.origin).search);
	return { error, ids, queries, output: error ? [] : run.output('Threats') };
}

describe('case 4: the query parameters are on every page', () => {
	it("Laravel's next_page_url (`?page=N` alone) keeps status=open on page 2", async () => {
		const all = [threat('thr_1'), threat('thr_2', 'fixed'), threat('thr_3'), threat('thr_4')];
		const { error, ids, queries } = await getManyThreats(
			(url) => {
				const page = Number(url.searchParams.get('page') ?? '1');
				const status = url.searchParams.get('status');
				const list = all.filter((record) => status === null || record.status === status);
				return {
					body: {
						data: list.slice((page - 1) * 2, page * 2),
						current_page: page,
						last_page: Math.ceil(list.length / 2),
						next_page_url: page * 2 < list.length ? `?page=${page + 1}` : null,
					},
				};
			},
			[{ name: 'status', value: 'open' }],
		);

		expect(error).toBeUndefined();
		expect(ids).toEqual(['thr_1', 'thr_3', 'thr_4']);
		expect(queries).toEqual(['?status=open', '?page=2&status=open']);
	});

	it("a link's own value of a parameter wins over the user's", async () => {
		const { error, ids, queries } = await getManyThreats(
			(url) =>
				url.searchParams.get('cursor') === null
					? { body: { data: [threat('thr_1')], next: '/v1/threats?cursor=c2&per_page=1' } }
					: { body: { data: [threat('thr_2')] } },
			[
				{ name: 'per_page', value: '2' },
				{ name: 'status', value: 'open' },
			],
		);

		expect(error).toBeUndefined();
		expect(ids).toEqual(['thr_1', 'thr_2']);
		expect(queries).toEqual(['?per_page=2&status=open', '?cursor=c2&per_page=1&status=open']);
	});
});

describe('case 5: a page read before ends the list with an error, never with repeated records', () => {
	it('a link back to the first page', async () => {
		const { error, ids, queries } = await getManyThreats((url, origin) =>
			url.searchParams.get('page') === '2'
				? { body: { data: [threat('b1'), threat('b2')], next: `${origin}/v1/threats` } }
				: { body: { data: [threat('a1'), threat('a2')], next: '/v1/threats?page=2' } },
		);

		expect(ids).toEqual([]);
		expect(error?.message).toMatch(/page .* already read/);
		expect(queries).toEqual(['', '?page=2']);
	});

	it('a self-link', async () => {
		const { error, ids } = await getManyThreats((url, origin) => ({
			body: { data: [threat('a1')], next: `${origin}${url.pathname}${url.search}` },
		}));

		expect(ids).toEqual([]);
		expect(error?.message).toMatch(/page .* already read/);
	});

	it('a service that ignores ?cursor= and names the same next_cursor', async () => {
		const { error, ids, queries } = await getManyThreats(() => ({
			body: { data: [threat('a1'), threat('a2')], next_cursor: 'c1' },
		}));

		expect(ids).toEqual([]);
		expect(error?.message).toMatch(/page .* already read/);
		expect(queries).toEqual(['', '?cursor=c1']);
	});

	it('page-number hints the service does not accept', async () => {
		const { error, ids, queries } = await getManyThreats(() => ({
			body: { data: [threat('a1'), threat('a2')], page: 1, totalPages: 3 },
		}));

		expect(ids).toEqual([]);
		expect(error?.message).toMatch(/page .* already read/);
		expect(queries).toEqual(['', '?page=2']);
	});
});

/** A list of 5 threats in pages of 2, the page asked for given by `pageOf`, answered by `body`. */
function pagesOf(
	pageOf: (url: URL) => number,
	body: (records: IDataObject[], page: number, pages: number) => unknown,
	headers?: (page: number, pages: number) => Record<string, string>,
) {
	const all = ['thr_1', 'thr_2', 'thr_3', 'thr_4', 'thr_5'].map((id) => threat(id));
	return (url: URL): ScriptedAnswer => {
		const page = pageOf(url);
		const records = all.slice((page - 1) * 2, page * 2);
		return { body: body(records, page, 3), headers: headers?.(page, 3) };
	};
}
const byParam = (name: string, toPage: (value: string) => number) => (url: URL) => {
	const value = url.searchParams.get(name);
	return value === null ? 1 : toPage(value);
};

describe('case 6: Return All reads every plausible pagination style to the end', () => {
	it.each<[string, (url: URL) => ScriptedAnswer, string[]]>([
		[
			'a cursor next to a list one level down',
			pagesOf(
				byParam('cursor', (value) => Number(value.slice(1))),
				(records, page, pages) => ({
					data: { threats: records, next_cursor: page < pages ? `c${page + 1}` : null },
				}),
			),
			['', '?cursor=c2', '?cursor=c3'],
		],
		[
			'has_more with offset and total',
			pagesOf(
				byParam('offset', (value) => Number(value) / 2 + 1),
				(records, page) => ({
					data: records,
					has_more: page < 3,
					offset: (page - 1) * 2,
					total: 5,
				}),
			),
			['', '?offset=2', '?offset=4'],
		],
		[
			'offset and total without has_more',
			pagesOf(
				byParam('offset', (value) => Number(value) / 2 + 1),
				(records, page) => ({
					items: records,
					offset: (page - 1) * 2,
					limit: 2,
					total: 5,
				}),
			),
			['', '?offset=2', '?offset=4'],
		],
		[
			'nextPageToken',
			pagesOf(
				byParam('pageToken', (value) => Number(value.slice(1))),
				(records, page, pages) => ({
					threats: records,
					nextPageToken: page < pages ? `t${page + 1}` : undefined,
				}),
			),
			['', '?pageToken=t2', '?pageToken=t3'],
		],
		[
			'@odata.nextLink',
			pagesOf(byParam('$skiptoken', Number), (records, page, pages) => ({
				value: records,
				'@odata.nextLink':
					page < pages ? `http://127.0.0.1/v1/threats?$skiptoken=${page + 1}` : undefined,
			})),
			['', '?$skiptoken=2', '?$skiptoken=3'],
		],
		[
			'a numeric next',
			pagesOf(byParam('page', Number), (records, page, pages) => ({
				data: records,
				next: page < pages ? page + 1 : null,
			})),
			['', '?page=2', '?page=3'],
		],
	])('%s', async (_style, answer, queries) => {
		const result = await getManyThreats((url, origin) => {
			const answered = answer(url);
			const body = JSON.parse(JSON.stringify(answered.body).replace('http://127.0.0.1', origin));
			return { ...answered, body };
		});

		expect(result.error).toBeUndefined();
		expect(result.ids).toEqual(['thr_1', 'thr_2', 'thr_3', 'thr_4', 'thr_5']);
		expect(result.queries).toEqual(queries);
	});

	it('an empty page in the middle that names a next page is followed', async () => {
		const pages = [[threat('thr_1')], [], [threat('thr_2')]];
		const { error, ids, queries } = await getManyThreats((url) => {
			const page = Number(url.searchParams.get('page') ?? '1');
			return { body: { data: pages[page - 1], page, totalPages: pages.length } };
		});

		expect(error).toBeUndefined();
		expect(ids).toEqual(['thr_1', 'thr_2']);
		expect(queries).toEqual(['', '?page=2', '?page=3']);
	});

	it.each([
		[
			'has_more: true with nothing to follow',
			{ data: [threat('thr_1')], has_more: true },
			'has_more',
		],
		['next: true', { data: [threat('thr_1')], next: true }, 'next'],
	])('a more-pages signal it cannot follow is an error: %s', async (_signal, body, field) => {
		const { error, ids, queries } = await getManyThreats(() => ({ body }));

		expect(ids).toEqual([]);
		expect(error?.message).toContain(`"${field}"`);
		expect(queries).toEqual(['']);
	});
});
