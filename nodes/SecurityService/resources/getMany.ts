import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { queryParametersProperty, readQueryParameters } from '../../shared/queryParameters';
import { securityList } from '../../shared/securityTransport';

/** One list endpoint of the service, read by a resource's "Get Many" operation. */
export interface ListEndpoint {
	resource: string;
	/** Path below the base URL, e.g. `/threats`. */
	path: string;
	/** Plural name, the key a wrapped list is most likely under. */
	plural: string;
}

/** Return All, Limit and Query Parameters of a resource's "Get Many" operation. */
export function getManyProperties(endpoint: ListEndpoint): INodeProperties[] {
	const displayOptions = { show: { resource: [endpoint.resource], operation: ['getAll'] } };
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			displayOptions,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			displayOptions: { show: { ...displayOptions.show, returnAll: [false] } },
			description: 'Max number of results to return',
		},
		queryParametersProperty(displayOptions),
	];
}

/** Reads the list in whatever shape it comes and returns one record per output item. */
export async function executeGetMany(
	ctx: IExecuteFunctions,
	itemIndex: number,
	endpoint: ListEndpoint,
): Promise<IDataObject[]> {
	const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = returnAll ? 0 : (ctx.getNodeParameter('limit', itemIndex, 50) as number);
	const qs = readQueryParameters(ctx.getNodeParameter('queryParameters', itemIndex, {}));
	return await securityList(
		ctx,
		{ method: 'GET', path: endpoint.path, qs, itemIndex },
		{ plural: endpoint.plural, returnAll, limit },
	);
}
