import type { INodeProperties } from 'n8n-workflow';

import * as getAll from './getAll';

export const reportOperations: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['report'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many reports',
				description: 'List the security reports of the sites (GET /reports)',
			},
		],
		default: 'getAll',
	},
	...getAll.description,
];

export const reportHandlers = { getAll: getAll.execute };
