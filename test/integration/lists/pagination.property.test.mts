import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { propertyRuns } from '../../support/harness/propertyRuns.mts';
import { chain, packageNode, runWorkflow, startNode } from '../../support/harness/runWorkflow.mts';
import {
	startScriptedService,
	type ScriptedService,
} from '../../support/harness/scriptedService.mts';
import {
	answerOf,
	faultMet,
	faultyList,
	wholeList,
	type PagedList,
} from '../../support/lists/pagedService.mts';

/**
 * Get Many threats (Return All or a Limit) through n8n-core over real HTTP, against the model
 * service of the unit property (test/support/lists/pagedService.mts) serving each generated list:
 * fewer runs than the unit property, the same properties, checked on the node's output and on
 * what the service received.
 */

let service: ScriptedService;
let served: PagedList;

beforeAll(async () => {
	service = await startScriptedService((request) =>
		answerOf(served, service.origin, new URL(request.url, service.origin)),
	);
});
afterAll(async () => await service.close());

async function getMany(list: PagedList, returnAll: boolean, limit: number) {
	served = list;
	service.requests.length = 0;
	const node = packageNode(
		'securityService',
		{
			resource: 'threat',
			operation: 'getAll',
			returnAll,
			limit,
			queryParameters: { parameters: list.query.map(([name, value]) => ({ name, value })) },
		},
		{ name: 'Threats', credentials: ['securityServiceApi'] },
	);
	const run = await runWorkflow(chain(startNode(), node), {
		credentials: {
			securityServiceApi: {
				baseUrl: `${service.origin}/v1`,
				apiKey: 'sec_pages',
				plan: 'enterprise',
			},
		},
	});
	const error = run.nodeError('Threats');
	const ids = error ? [] : run.output('Threats').map((item) => (item.json as IDataObject).id);
	const sent = service.requests.map((request) => new URL(request.url, service.origin));
	return { error, ids, sent };
}

function check(
	list: PagedList,
	returnAll: boolean,
	limit: number,
	result: Awaited<ReturnType<typeof getMany>>,
) {
	const all = list.pages.flat().map((record) => record.id);
	for (const url of result.sent) {
		expect(url.pathname).toBe('/v1/threats');
		for (const [name, value] of list.query) expect(url.searchParams.getAll(name)).toEqual([value]);
	}
	if (result.error) {
		expect(result.error.name).toBe('NodeApiError');
		expect(result.error.message).toMatch(/already read|goes on/);
		return;
	}
	expect(result.ids).toEqual(returnAll ? all : all.slice(0, limit));
}

describe('Get Many over every pagination style, through n8n-core (property)', () => {
	it('outputs a list served without a fault whole, in order, with the query on every request', async () => {
		await fc.assert(
			fc.asyncProperty(wholeList, async (list) => {
				const result = await getMany(list, true, 50);
				expect(result.error).toBeUndefined();
				check(list, true, 50, result);
				expect(result.sent).toHaveLength(list.pages.length);
			}),
			propertyRuns(30),
		);
	});

	it('fails with a node error, outputting nothing twice, when the service repeats a page or cannot say where the next one is', async () => {
		await fc.assert(
			fc.asyncProperty(
				faultyList,
				fc.boolean(),
				fc.integer({ min: 1, max: 20 }),
				async (list, returnAll, limit) => {
					const result = await getMany(list, returnAll, limit);
					check(list, returnAll, limit, result);
					if (returnAll && faultMet(list)) expect(result.error).toBeDefined();
				},
			),
			propertyRuns(30),
		);
	});
});
