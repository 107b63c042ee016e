import type { OperationModule } from '../../shared/parameters/resourceAndOperation';
import { getManyProperties, readGetMany } from '../../shared/parameters/returnAllAndLimit';
import {
	queryParametersProperty,
	readQueryParameters,
} from '../../shared/parameters/queryParameters';
import { fetchList } from '../../shared/lists/pagedRequests';
import { SECURITY_SERVICE } from '../transport';

/**
 * A resource's "Get Many" (`getAll`): Return All, Limit and Query Parameters over
 * `GET /<resource>s`, read in whatever shape it comes, one record per output item.
 */
export function getManyOperation(resource: string, optionDescription: string): OperationModule {
	const plural = `${resource}s`;
	return {
		option: { name: 'Get Many', action: `Get many ${plural}`, description: optionDescription },
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
