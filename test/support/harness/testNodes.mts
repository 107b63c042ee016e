import {
	NodeConnectionTypes,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

/** Test stand-ins for n8n's Manual Trigger and a "set items" node (n8n-nodes-base is not installed). */
export const START_NODE_TYPE = 'test.start';
export const ITEMS_NODE_TYPE = 'test.items';

export class StartNode implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Start',
		name: 'start',
		group: ['trigger'],
		version: 1,
		description: 'Starts a test workflow',
		defaults: { name: 'Start' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

export class ItemsNode implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Items',
		name: 'items',
		group: ['transform'],
		version: 1,
		description: 'Emits the items given in its "items" parameter (a JSON array)',
		defaults: { name: 'Items' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const raw = this.getNodeParameter('items', 0) as string | IDataObject[];
		const items = (typeof raw === 'string' ? JSON.parse(raw) : raw) as IDataObject[];
		return [items.map((json, index) => ({ json, pairedItem: { item: 0, input: index } }))];
	}
}
