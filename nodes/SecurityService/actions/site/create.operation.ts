import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import { readText } from '../../../shared/parameters/values';
import { unwrapRecord } from '../../../shared/lists/recordFields';
import { requestService } from '../../../shared/http/serviceRequest';
import { SECURITY_SERVICE } from '../../transport';
import { additionalFieldsProperty, readAdditionalFields } from '../bodyFields';

export const option = {
	name: 'Create',
	action: 'Create site',
	description: 'Add a site for the service to protect',
};

const displayOptions = { show: { resource: ['site'], operation: ['create'] } };

/** Each item sends a write: one at a time unless Parallel Requests says otherwise. */
export const writes = true;

export const description: INodeProperties[] = [
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://www.example.com',
		displayOptions,
		description: 'Address of the site to protect, with http:// or https://',
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		displayOptions,
		description: 'Name shown for the site. Leave empty to let the service choose one.',
	},
	additionalFieldsProperty('site', 'create', '{"tags": ["shop"]}'),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const url = readText(this, 'url', 'URL', itemIndex);
	if (url === '') {
		throw new NodeOperationError(this.getNode(), 'The URL is empty', {
			itemIndex,
			description: 'Enter the address of the site, e.g. https://www.example.com.',
		});
	}
	const name = readText(this, 'name', 'name', itemIndex);
	const body: IDataObject = { ...readAdditionalFields(this, itemIndex), url };
	if (name !== '') body.name = name;
	const { body: response } = await requestService(this, SECURITY_SERVICE, {
		method: 'POST',
		path: '/sites',
		body,
		itemIndex,
	});
	return unwrapRecord(response, 'site', { ...body });
}
