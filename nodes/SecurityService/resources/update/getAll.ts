import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { executeGetMany, getManyProperties, type ListEndpoint } from '../getMany';

const endpoint: ListEndpoint = { resource: 'update', path: '/updates', plural: 'updates' };

export const description = getManyProperties(endpoint);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return await executeGetMany(this, itemIndex, endpoint);
}
