import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { INodeParameters } from 'n8n-workflow';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { chain, packageNode, runWorkflow, startNode } from '../support/harness/runWorkflow.mts';

/** The README: lists are read to at most 1,000 pages. */
const MAX_PAGES = 1000;

/**
 * How Get Many follows a list's pages, against a service whose `/v1/sites` never ends: page N
 * links to page N + 1, or in a loop, page 2 links back to page 1.
 */

let server: Server;
let baseUrl: string;
let loop = false;
const received: string[] = [];

beforeAll(async () => {
	server = createServer((request, response) => {
		received.push(request.url ?? '');
		const url = new URL(request.url ?? '/', 'http://service.invalid');
		const page = Number(url.searchParams.get('page') ?? '1');
		const next =
			loop && page === 2 ? `${baseUrl}/sites?page=1` : `${baseUrl}/sites?page=${page + 1}`;
		response.writeHead(200, { 'content-type': 'application/json' });
		response.end(JSON.stringify({ sites: [{ id: `site_${page}` }], next }));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => await new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
	received.length = 0;
	loop = false;
});

async function getMany(parameters: INodeParameters) {
	const node = packageNode(
		'performanceService',
		{ resource: 'site', operation: 'getAll', simplify: false, ...parameters },
		{ name: 'Sites', credentials: ['performanceServiceApi'] },
	);
	const run = await runWorkflow(chain(startNode(), node), {
		credentials: { performanceServiceApi: { baseUrl, apiToken: 'pst_pages' } },
	});
	const error = run.nodeError('Sites') as (Error & { description?: string }) | undefined;
	return { error, ids: error ? [] : run.output('Sites').map((item) => item.json.id) };
}

describe('Get Many follows pages', () => {
	it('with a limit, only as many pages as the limit needs', async () => {
		const { error, ids } = await getMany({ returnAll: false, limit: 3 });

		expect(error).toBeUndefined();
		expect(ids).toEqual(['site_1', 'site_2', 'site_3']);
		expect(received).toEqual(['/v1/sites', '/v1/sites?page=2', '/v1/sites?page=3']);
	});

	it(`Return All on a list of more than ${MAX_PAGES} pages fails instead of returning it cut short`, async () => {
		const { error } = await getMany({ returnAll: true });

		expect(error?.message).toBe(
			`The list of sites has more than ${MAX_PAGES} pages; stopped after ${MAX_PAGES} records`,
		);
		expect(error?.description).toBe(
			'Turn off Return All and set a Limit, or narrow the list with a filter (Query Parameters), so that it fits.',
		);
		expect(received).toHaveLength(MAX_PAGES);
		expect(received.at(-1)).toBe(`/v1/sites?page=${MAX_PAGES}`);
	});

	it('Return All fails, outputting nothing, when a page links back to one already read', async () => {
		loop = true;
		const { error, ids } = await getMany({ returnAll: true });

		expect(ids).toEqual([]);
		expect(error?.message).toBe(
			`The service named a page of the list already read (${baseUrl}/sites?page=2), so the list stops here rather than repeat records`,
		);
		expect(received).toEqual(['/v1/sites', '/v1/sites?page=2', '/v1/sites?page=1']);
	});
});
