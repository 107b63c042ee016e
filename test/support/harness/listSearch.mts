import { LoadOptionsContext } from 'n8n-core';
import {
	Workflow,
	type INode,
	type INodeListSearchResult,
	type INodeParameters,
} from 'n8n-workflow';

import { createNodeTypes } from './nodeTypes.mts';
import { loadPackageTypes, shippedVersion } from './packageTypes.mts';
import { buildAdditionalData, packageTypeName, type Credentials } from './runWorkflow.mts';

export interface ListSearchCall {
	/** Short node type name, e.g. `performanceService`. */
	nodeType: string;
	/** The `listSearch` method, e.g. `searchSites`. */
	method: string;
	credentials: Credentials;
	/** The node's current parameters (the editor sends them along). */
	parameters?: INodeParameters;
	filter?: string;
	paginationToken?: string;
}

/**
 * Runs a node's `methods.listSearch` the way n8n's editor backend does: a throwaway workflow
 * holding the node, n8n-core's LoadOptionsContext, and the harness's credentials.
 */
export async function runListSearch(call: ListSearchCall): Promise<INodeListSearchResult> {
	const types = await loadPackageTypes();
	const type = packageTypeName(call.nodeType);
	const nodeType = types.nodes.get(type);
	const search = nodeType?.methods?.listSearch?.[call.method];
	if (!search) throw new Error(`${type} has no listSearch method ${call.method}`);

	const node: INode = {
		id: 'list-search',
		name: 'Node',
		type,
		typeVersion: shippedVersion(types, type),
		position: [0, 0],
		parameters: call.parameters ?? {},
		credentials: Object.fromEntries(
			Object.keys(call.credentials).map((name) => [name, { id: name, name }]),
		),
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: createNodeTypes(types),
	});
	const context = new LoadOptionsContext(
		workflow,
		node,
		buildAdditionalData(types, call.credentials),
		'parameters',
	);
	return await search.call(context, call.filter, call.paginationToken);
}
