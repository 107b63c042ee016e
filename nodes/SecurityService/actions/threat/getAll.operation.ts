import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { listEndpointProperties, readListEndpoint, type ListEndpoint } from '../getManyEndpoint';

const endpoint: ListEndpoint = { resource: 'threat', path: '/threats', plural: 'threats' };

export const description = listEndpointProperties(endpoint);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return await readListEndpoint(this, itemIndex, endpoint);
}
