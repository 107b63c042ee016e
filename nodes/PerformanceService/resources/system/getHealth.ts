import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { performanceRequest } from '../../../shared/performanceTransport';
import { responseRecord } from '../responseRecord';

export const description: INodeProperties[] = [];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const body = await performanceRequest(this, { method: 'GET', path: '/system', itemIndex });
	return responseRecord(body, 'system');
}
