import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getManyProperties, readGetMany } from '../../../shared/parameters/returnAllAndLimit';
import { readBoolean } from '../../../shared/parameters/values';
import { PERFORMANCE_SCOPES } from '../../transport/serviceValues';
import { fetchList } from '../../../shared/lists/pagedRequests';
import { PERFORMANCE_SERVICE } from '../../transport';
import { simplifyGetManyProperty, simplifySite } from './simplifySite';

export const option = {
	name: 'Get Many',
	action: 'Get many sites',
	description: 'List the monitored sites with their status and audits',
};

export const description: INodeProperties[] = [
	...getManyProperties('site'),
	simplifyGetManyProperty,
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const { returnAll, limit } = readGetMany(this, itemIndex);
	const simplify = readBoolean(this, 'simplify', 'Simplify', itemIndex, true);
	const sites = await fetchList(
		this,
		PERFORMANCE_SERVICE,
		{ method: 'GET', path: '/sites', itemIndex, scope: PERFORMANCE_SCOPES.sitesRead },
		{ plural: 'sites', returnAll, limit },
	);
	return simplify ? sites.map(simplifySite) : sites;
}
