import type { INodeType, INodeTypes, IVersionedNodeType } from 'n8n-workflow';

import type { PackageTypes } from './packageTypes.mts';
import { ITEMS_NODE_TYPE, ItemsNode, START_NODE_TYPE, StartNode } from './testNodes.mts';

const otherTypes = new Map<string, INodeType | IVersionedNodeType>();

/** Adds a node type from outside the package (n8n's HTTP Request node, for benchmarks) to every workflow run. */
export function registerNodeType(type: string, node: INodeType | IVersionedNodeType): void {
	otherTypes.set(type, node);
}

/** The package's nodes under the type names n8n gives a community package, plus two test helpers. */
export function createNodeTypes(types: PackageTypes): INodeTypes {
	const registry = new Map<string, INodeType | IVersionedNodeType>([...types.nodes, ...otherTypes]);
	registry.set(START_NODE_TYPE, new StartNode());
	registry.set(ITEMS_NODE_TYPE, new ItemsNode());

	const get = (type: string): INodeType | IVersionedNodeType => {
		const node = registry.get(type);
		if (!node) throw new Error(`Unknown node type ${type}`);
		return node;
	};
	return {
		getByName: (type: string): INodeType | IVersionedNodeType => get(type),
		getByNameAndVersion: (type: string, version?: number): INodeType => {
			const node = get(type);
			return 'nodeVersions' in node ? node.getNodeType(version) : node;
		},
		getKnownTypes: () => ({}),
	};
}
