import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { performanceRequest } from '../../transport';
import { unwrapRecord } from '../../../shared/lists/recordFields';

export const description: INodeProperties[] = [];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const body = await performanceRequest(this, { method: 'GET', path: '/system', itemIndex });
	return unwrapRecord(body, 'system');
}
