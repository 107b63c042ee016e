import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import { afterAll, beforeAll, describe, it } from 'vitest';

import { propertyRuns } from '../../support/harness/propertyRuns.mts';
import { chain, packageNode, runWorkflow, startNode } from '../../support/harness/runWorkflow.mts';
import {
	startScriptedService,
	type ScriptedService,
} from '../../support/harness/scriptedService.mts';
import {
	answerOf,
	failsOnFault,
	readsWholeList,
	type PagedList,
	type ReadList,
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

/** Get Many threats (Return All or a Limit) in a workflow n8n-core runs. */
const getMany: ReadList = async (list, returnAll, limit) => {
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
};

describe('Get Many over every pagination style, through n8n-core (property)', () => {
	it('outputs a list served without a fault whole, in order, with the query on every request', async () => {
		await fc.assert(readsWholeList(getMany), propertyRuns(30));
	});

	it('fails with a node error, outputting nothing twice, when the service repeats a page or cannot say where the next one is', async () => {
		await fc.assert(failsOnFault(getMany), propertyRuns(30));
	});
});
