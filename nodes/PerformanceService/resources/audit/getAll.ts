import { NodeOperationError, type IDataObject, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { performanceList } from '../../../shared/performanceTransport';

const AUDIT_LIMIT = { min: 1, max: 100, default: 20 };

export const description: INodeProperties[] = [
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: AUDIT_LIMIT.min, maxValue: AUDIT_LIMIT.max },
		default: AUDIT_LIMIT.default,
		description: 'Max number of results to return (1 to 100), newest audits first',
		displayOptions: { show: { resource: ['audit'], operation: ['getAll'] } },
	},
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const limit = this.getNodeParameter('limit', itemIndex, AUDIT_LIMIT.default) as number;
	if (!(Number.isInteger(limit) && limit >= AUDIT_LIMIT.min && limit <= AUDIT_LIMIT.max)) {
		throw new NodeOperationError(
			this.getNode(),
			`The limit must be a whole number from ${AUDIT_LIMIT.min} to ${AUDIT_LIMIT.max}, not ${limit}`,
			{ itemIndex },
		);
	}
	return await performanceList(
		this,
		{ method: 'GET', path: '/audits-list', qs: { limit }, itemIndex, scope: 'audits:read' },
		{ plural: 'audits', returnAll: false, limit },
	);
}
