import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getManyProperties, readGetMany } from '../../../shared/getMany';
import { PERFORMANCE_SCOPES } from '../../../shared/performanceApi';
import { performanceList } from '../../../shared/performanceTransport';
import { simplifyGetManyProperty, simplifySite } from './simplifySite';

export const description: INodeProperties[] = [
	...getManyProperties('site'),
	simplifyGetManyProperty,
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const { returnAll, limit } = readGetMany(this, itemIndex);
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;
	const sites = await performanceList(
		this,
		{ method: 'GET', path: '/sites', itemIndex, scope: PERFORMANCE_SCOPES.sitesRead },
		{ plural: 'sites', returnAll, limit },
	);
	return simplify ? sites.map(simplifySite) : sites;
}
