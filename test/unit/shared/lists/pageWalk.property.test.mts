import fc from 'fast-check';
import { NodeApiError, type IDataObject, type INode } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	collectList,
	listPageOf,
	pageRequestOf,
	type PageReader,
} from '../../../../nodes/shared/lists/pagedRequests.ts';
import type { ServiceProfile, ServiceRequest } from '../../../../nodes/shared/http/serviceTypes.ts';
import { propertyRuns } from '../../../support/harness/propertyRuns.mts';
import {
	answerOf,
	faultMet,
	faultyList,
	modelPath,
	wholeList,
	type PagedList,
} from '../../../support/lists/pagedService.mts';

/**
 * The page walk (`collectList` over `listPageOf`, the code Get Many runs) against a model service
 * serving a list in every pagination style the reader accepts, with and without faults. The
 * request is composed as n8n sends it: the URL, then the query appended.
 */

const ORIGIN = 'https://api.example';
const node = {
	name: 'Threats',
	type: 'test',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
} as INode;
const profile = {
	serviceName: 'Security Service',
	credentialName: 'Security Service',
} as ServiceProfile;

/** The URL a request goes to, its query appended as n8n appends `qs`. */
function sentUrl(request: ServiceRequest): URL {
	const url = request.url ?? `${ORIGIN}${modelPath}`;
	const pairs: Array<[string, string]> = Object.entries(request.qs ?? {}).flatMap(([name, value]) =>
		[value].flat().map((one): [string, string] => [name, String(one)]),
	);
	const query = new URLSearchParams(pairs).toString();
	return new URL(query ? `${url}${url.includes('?') ? '&' : '?'}${query}` : url);
}

function readerOf(list: PagedList) {
	const request: ServiceRequest = {
		method: 'GET',
		path: '/threats',
		qs: Object.fromEntries(list.query),
	};
	const sent: URL[] = [];
	const readPage: PageReader = Object.assign(
		async (at: Parameters<PageReader>[0]) => {
			const pageRequest = pageRequestOf(request, at);
			const url = sentUrl(pageRequest);
			sent.push(url);
			const answer = answerOf(list, ORIGIN, url);
			if (answer.status !== 200) throw new NodeApiError(node, { status: answer.status });
			const answered = { url: pageRequest.url ?? `${ORIGIN}${modelPath}`, ...answer };
			return listPageOf(node, profile, answered, pageRequest, 'threats', request.qs);
		},
		{ node },
	);
	return { readPage, sent };
}

async function walk(list: PagedList, returnAll: boolean, limit: number) {
	const { readPage, sent } = readerOf(list);
	try {
		const records = await collectList(readPage, { plural: 'threats', returnAll, limit });
		return { records, sent };
	} catch (error) {
		return { error: error as Error, sent };
	}
}

const idsOf = (records: IDataObject[]) => records.map((record) => record.id);

/** The properties every walk keeps, whatever the service answered. */
function checkWalk(
	list: PagedList,
	returnAll: boolean,
	limit: number,
	result: Awaited<ReturnType<typeof walk>>,
) {
	const all = idsOf(list.pages.flat());
	// The user's query parameters on every request, each once with the user's value.
	for (const url of result.sent) {
		for (const [name, value] of list.query) expect(url.searchParams.getAll(name)).toEqual([value]);
	}
	if (result.error) {
		// Every failure is a node error that says why.
		expect(result.error).toBeInstanceOf(NodeApiError);
		expect(result.error.message).toMatch(/already read|goes on/);
		return;
	}
	// No record twice, none dropped: the list (or its first `limit` records) in order.
	expect(idsOf(result.records)).toEqual(returnAll ? all : all.slice(0, limit));
}

describe('the page walk over every pagination style (property)', () => {
	it('reads a list served without a fault whole, in order, with the query on every page', async () => {
		await fc.assert(
			fc.asyncProperty(wholeList, async (list) => {
				const result = await walk(list, true, 0);
				expect(result.error).toBeUndefined();
				checkWalk(list, true, 0, result);
				expect(result.sent).toHaveLength(list.pages.length);
			}),
			propertyRuns(800),
		);
	});

	it('fails with a node error naming the cause when the service repeats a page or cannot say where the next one is', async () => {
		await fc.assert(
			fc.asyncProperty(
				faultyList,
				fc.boolean(),
				fc.integer({ min: 1, max: 20 }),
				async (list, returnAll, limit) => {
					const result = await walk(list, returnAll, limit);
					checkWalk(list, returnAll, limit, result);
					if (returnAll && faultMet(list)) {
						const cause = list.fault?.kind === 'unreadable' ? 'goes on' : 'already read';
						expect(result.error?.message).toContain(cause);
					}
				},
			),
			propertyRuns(800),
		);
	});
});
