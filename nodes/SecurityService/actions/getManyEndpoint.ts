import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getManyProperties, readGetMany } from '../../shared/parameters/returnAllAndLimit';
import {
	queryParametersProperty,
	readQueryParameters,
} from '../../shared/parameters/queryParameters';
import { securityList } from '../transport';

/** One list endpoint of the service, read by a resource's "Get Many" operation. */
export interface ListEndpoint {
	resource: string;
	/** Path below the base URL, e.g. `/threats`. */
	path: string;
	/** Plural name, the key a wrapped list is most likely under. */
	plural: string;
}

/** Return All, Limit and Query Parameters of a resource's "Get Many" operation. */
export function listEndpointProperties(endpoint: ListEndpoint): INodeProperties[] {
	return [
		...getManyProperties(endpoint.resource),
		queryParametersProperty({ show: { resource: [endpoint.resource], operation: ['getAll'] } }),
	];
}

/** Reads the list in whatever shape it comes and returns one record per output item. */
export async function readListEndpoint(
	ctx: IExecuteFunctions,
	itemIndex: number,
	endpoint: ListEndpoint,
): Promise<IDataObject[]> {
	const { returnAll, limit } = readGetMany(ctx, itemIndex);
	const qs = readQueryParameters(ctx.getNodeParameter('queryParameters', itemIndex, {}));
	return await securityList(
		ctx,
		{ method: 'GET', path: endpoint.path, qs, itemIndex },
		{ plural: endpoint.plural, returnAll, limit },
	);
}
