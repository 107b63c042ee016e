import type { INodeProperties } from 'n8n-workflow';

import type { OperationHandler } from '../../shared/actions/router';
import { getManyProperties, readGetMany } from '../../shared/parameters/returnAllAndLimit';
import {
	queryParametersProperty,
	readQueryParameters,
} from '../../shared/parameters/queryParameters';
import { fetchList } from '../../shared/lists/pagedRequests';
import { SECURITY_SERVICE } from '../transport';

/**
 * A resource's "Get Many" (`getAll`): Return All, Limit and Query Parameters over
 * `GET /<plural>`, read in whatever shape it comes, one record per output item.
 */
export function getManyOperation(
	resource: string,
	plural: string,
): { description: INodeProperties[]; execute: OperationHandler } {
	return {
		description: [
			...getManyProperties(resource),
			queryParametersProperty({ show: { resource: [resource], operation: ['getAll'] } }),
		],
		async execute(itemIndex) {
			const { returnAll, limit } = readGetMany(this, itemIndex);
			const qs = readQueryParameters(this.getNodeParameter('queryParameters', itemIndex, {}));
			const request = { method: 'GET' as const, path: `/${plural}`, qs, itemIndex };
			return await fetchList(this, SECURITY_SERVICE, request, { plural, returnAll, limit });
		},
	};
}
