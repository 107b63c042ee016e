import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runListSearch } from '../../support/harness/listSearch.mts';
import { runNode, type RunNodeOptions } from '../../support/harness/runNode.mts';
import {
	requestsTo,
	sandboxCredentials,
	serviceAnswer,
	withSandbox,
} from '../../support/harness/sandbox.mts';
import type { SandboxOptions } from '../../support/sandbox/index.mts';

/**
 * Starts a sandbox for the calling test file (see withSandbox) and returns it with `run`, which
 * runs the Security Service node against it, `securityRequests`, the requests the security
 * service received, `serviceList`, a list as the service answers it (in the default, wrapped
 * shape), and `search`, which calls one of the node's list searches.
 */
export function securitySandbox(options: SandboxOptions = {}) {
	const sandbox = withSandbox(options);
	const run = (parameters: INodeParameters, runOptions: RunNodeOptions = {}) =>
		runNode('securityService', parameters, { sandbox, ...runOptions });
	const securityRequests = () => requestsTo(sandbox, 'security');
	const serviceList = async (resource: string) =>
		((await serviceAnswer(sandbox, 'security', `/${resource}`)) as Record<string, IDataObject[]>)[
			resource
		];
	const search = (method: string, filter?: string, paginationToken?: string) =>
		runListSearch({
			nodeType: 'securityService',
			method,
			credentials: sandboxCredentials(sandbox),
			filter,
			paginationToken,
		});
	return { sandbox, run, securityRequests, serviceList, search };
}
