import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readLimit } from '../../../shared/parameters/returnAllAndLimit';
import { PERFORMANCE_LIMITS, PERFORMANCE_SCOPES } from '../../transport/serviceValues';
import { fetchList } from '../../../shared/lists/pagedRequests';
import { PERFORMANCE_SERVICE } from '../../transport';

/**
 * The endpoint returns the newest audits, at most 100 at a time; it has no Return All. The
 * default is n8n's usual 50 (it was 20 before 0.2.0, see the changelog).
 */
export const option = {
	name: 'Get Many',
	action: 'Get many audits',
	description:
		'List the newest page-performance audits across every site of the organisation, up to 100',
};

export const description: INodeProperties[] = [
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 100 },
		default: 50,
		description: 'Max number of results to return',
		hint: 'From 1 to 100, newest audits first',
		displayOptions: { show: { resource: ['audit'], operation: ['getAll'] } },
	},
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const limit = readLimit(this, itemIndex, PERFORMANCE_LIMITS.auditsPerList);
	return await fetchList(
		this,
		PERFORMANCE_SERVICE,
		{
			method: 'GET',
			path: '/audits-list',
			qs: { limit },
			itemIndex,
			scope: PERFORMANCE_SCOPES.auditsRead,
		},
		{ plural: 'audits', returnAll: false, limit },
	);
}
