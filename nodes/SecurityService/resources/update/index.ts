import type { INodeProperties } from 'n8n-workflow';

import * as getAll from './getAll';

export const updateOperations: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['update'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many updates',
				description: 'List the core, plugin and theme updates available for the sites (GET /updates)',
			},
		],
		default: 'getAll',
	},
	...getAll.description,
];

export const updateHandlers = { getAll: getAll.execute };
