import type { INodeProperties } from 'n8n-workflow';

import * as getAll from './getAll';

export const auditOperations: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['audit'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many audits',
				description: 'List the newest page-performance audits across all sites of the organisation',
			},
		],
		default: 'getAll',
	},
	...getAll.description,
];

export const auditHandlers = { getAll: getAll.execute };
