import { NodeOperationError, type IDataObject, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { performanceList } from '../../../shared/performanceTransport';
import { simplifyProperty, simplifySite } from './simplifySite';

const showOnly = { resource: ['site'], operation: ['getAll'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
		displayOptions: { show: showOnly },
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { ...showOnly, returnAll: [false] } },
	},
	simplifyProperty('getAll'),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = returnAll ? 0 : (this.getNodeParameter('limit', itemIndex, 50) as number);
	if (!returnAll && !(Number.isInteger(limit) && limit >= 1)) {
		throw new NodeOperationError(this.getNode(), `The limit must be a whole number of at least 1, not ${limit}`, {
			itemIndex,
		});
	}
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;
	const sites = await performanceList(
		this,
		{ method: 'GET', path: '/sites', itemIndex, scope: 'sites:read' },
		{ plural: 'sites', returnAll, limit },
	);
	return simplify ? sites.map(simplifySite) : sites;
}
