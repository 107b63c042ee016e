import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { toPathSegment } from '../../../shared/ids';
import { securityRequest } from '../../../shared/securityTransport';
import { unwrapRecord } from '../unwrapRecord';

export const description: INodeProperties[] = [
	{
		displayName: 'Threat',
		name: 'threatId',
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		displayOptions: { show: { resource: ['threat'], operation: ['resolve'] } },
		description: 'The threat to mark as resolved',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select an unresolved threat...',
				typeOptions: { searchListMethod: 'searchUnresolvedThreats', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. thr_12',
			},
		],
	},
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const raw = this.getNodeParameter('threatId', itemIndex, '', { extractValue: true }) as string;
	const segment = toPathSegment(this.getNode(), raw, 'threat ID', itemIndex);
	const threatId = decodeURIComponent(segment);
	const response = await securityRequest(this, {
		method: 'PATCH',
		path: `/threats/${segment}/resolve`,
		itemIndex,
		subject: `threat "${threatId}"`,
	});
	return unwrapRecord(response, 'threat', { id: threatId, resolved: true });
}
