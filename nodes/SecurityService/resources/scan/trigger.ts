import { NodeOperationError, type IDataObject, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { securityRequest } from '../../../shared/securityTransport';
import { additionalFieldsProperty, readAdditionalFields } from '../bodyFields';
import { unwrapRecord } from '../unwrapRecord';

export const description: INodeProperties[] = [
	{
		displayName: 'Site',
		name: 'siteId',
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		displayOptions: { show: { resource: ['scan'], operation: ['trigger'] } },
		description: 'The site to scan',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a site...',
				typeOptions: { searchListMethod: 'searchSites', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. st_1',
			},
		],
	},
	additionalFieldsProperty('scan', 'trigger', '{"type": "deep"}'),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const raw = this.getNodeParameter('siteId', itemIndex, '', { extractValue: true }) as unknown;
	const siteId = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
	if (siteId === '') {
		throw new NodeOperationError(this.getNode(), 'The site ID is empty', {
			itemIndex,
			description:
				'Pick a site from the list, or enter its ID. If the ID comes from an expression, check that the previous node returns it.',
		});
	}
	const body: IDataObject = { ...readAdditionalFields(this, itemIndex), siteId };
	const response = await securityRequest(this, {
		method: 'POST',
		path: '/scans/trigger',
		body,
		itemIndex,
		subject: `site "${siteId}"`,
	});
	return unwrapRecord(response, 'scan', { siteId, triggered: true });
}
