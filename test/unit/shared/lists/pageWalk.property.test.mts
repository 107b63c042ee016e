import fc from 'fast-check';
import { NodeApiError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	collectList,
	listPageOf,
	pageRequestOf,
	type PageReader,
} from '../../../../nodes/shared/lists/pagedRequests.ts';
import type { ServiceRequest } from '../../../../nodes/shared/http/serviceTypes.ts';
import { propertyRuns } from '../../../support/harness/propertyRuns.mts';
import {
	answerOf,
	failsOnFault,
	modelPath,
	readsWholeList,
	type PagedList,
	type ReadList,
} from '../../../support/lists/pagedService.mts';
import { node, profile } from '../../../support/lists/threatsReader.mts';

/**
 * The page walk (`collectList` over `listPageOf`, the code Get Many runs) against a model service
 * serving a list in every pagination style the reader accepts, with and without faults. The
 * request is composed as n8n sends it: the URL, then the query appended.
 */

const ORIGIN = 'https://api.example';

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

/** Get Many's page walk (Return All or the first `limit` records) over the model service. */
const walk: ReadList = async (list, returnAll, limit) => {
	const { readPage, sent } = readerOf(list);
	try {
		const records = await collectList(readPage, { plural: 'threats', returnAll, limit });
		return { ids: records.map((record) => record.id), sent };
	} catch (error) {
		expect(error).toBeInstanceOf(NodeApiError);
		return { error: error as Error, ids: [], sent };
	}
};

describe('the page walk over every pagination style (property)', () => {
	it('reads a list served without a fault whole, in order, with the query on every page', async () => {
		await fc.assert(readsWholeList(walk), propertyRuns(800));
	});

	it('fails with a node error naming the cause when the service repeats a page or cannot say where the next one is', async () => {
		await fc.assert(failsOnFault(walk), propertyRuns(800));
	});
});
