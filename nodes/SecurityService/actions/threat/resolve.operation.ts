import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	readLocatorPathId,
	resourceLocatorProperty,
} from '../../../shared/parameters/resourceLocator';
import { unwrapRecord } from '../../../shared/lists/recordFields';
import { requestService } from '../../../shared/http/serviceRequest';
import { SECURITY_SERVICE } from '../../transport';

export const option = {
	name: 'Resolve',
	action: 'Resolve threat',
	description: 'Mark a threat as resolved',
};

/** Each item sends a write: one at a time unless Parallel Requests says otherwise. */
export const writes = true;

export const description: INodeProperties[] = [
	resourceLocatorProperty({
		displayName: 'Threat',
		name: 'threatId',
		description: 'The threat to mark as resolved',
		resource: 'threat',
		operation: 'resolve',
		searchListMethod: 'searchUnresolvedThreats',
		listPlaceholder: 'Select an unresolved threat...',
		idPlaceholder: 'e.g. thr_12',
	}),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const { id: threatId, segment } = readLocatorPathId(this, 'threatId', 'threat ID', itemIndex);
	const { body: response } = await requestService(this, SECURITY_SERVICE, {
		method: 'PATCH',
		path: `/threats/${segment}/resolve`,
		itemIndex,
		addressedRecord: `threat "${threatId}"`,
	});
	return unwrapRecord(response, 'threat', { id: threatId, resolved: true });
}
