import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { performanceRequest } from '../../../shared/performanceTransport';

export const description: INodeProperties[] = [];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	return (await performanceRequest(this, { method: 'GET', path: '/system', itemIndex })) as IDataObject;
}
