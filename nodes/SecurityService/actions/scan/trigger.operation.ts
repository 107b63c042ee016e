import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readLocatorId, resourceLocatorProperty } from '../../../shared/parameters/resourceLocator';
import { unwrapRecord } from '../../../shared/lists/recordFields';
import { requestService } from '../../../shared/http/serviceRequest';
import { SECURITY_SERVICE } from '../../transport';
import { additionalFieldsProperty, readAdditionalFields } from '../bodyFields';

export const option = {
	name: 'Trigger',
	action: 'Trigger scan',
	description: 'Start a security scan of a site',
};

/** Each item sends a write: one at a time unless Parallel Requests says otherwise. */
export const writes = true;

export const description: INodeProperties[] = [
	resourceLocatorProperty({
		displayName: 'Site',
		name: 'siteId',
		description: 'The site to scan',
		resource: 'scan',
		operation: 'trigger',
		searchListMethod: 'searchSites',
		listPlaceholder: 'Select a site...',
		idPlaceholder: 'e.g. st_1',
	}),
	additionalFieldsProperty('scan', 'trigger', '{"type": "deep"}'),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const siteId = readLocatorId(this, 'siteId', 'site ID', itemIndex);
	const body: IDataObject = { ...readAdditionalFields(this, itemIndex), siteId };
	const { body: response } = await requestService(this, SECURITY_SERVICE, {
		method: 'POST',
		path: '/scans/trigger',
		body,
		itemIndex,
		addressedRecord: `site "${siteId}"`,
	});
	return unwrapRecord(response, 'scan', { siteId, triggered: true });
}
