import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requestService } from '../../../shared/http/serviceRequest';
import { PERFORMANCE_SERVICE } from '../../transport';
import { unwrapRecord } from '../../../shared/lists/recordFields';

export const option = {
	name: 'Get Health',
	action: 'Get system health',
	description: 'Read the health of the service: status, version and job queue',
};

export const description: INodeProperties[] = [];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const { body } = await requestService(this, PERFORMANCE_SERVICE, {
		method: 'GET',
		path: '/system',
		itemIndex,
	});
	return unwrapRecord(body, 'system');
}
