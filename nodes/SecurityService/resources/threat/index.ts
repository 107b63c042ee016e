import type { INodeProperties } from 'n8n-workflow';

import * as getAll from './getAll';
import * as resolve from './resolve';

export const threatOperations: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['threat'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many threats',
				description: 'List the threats found on the sites (GET /threats)',
			},
			{
				name: 'Resolve',
				value: 'resolve',
				action: 'Resolve a threat',
				description: 'Mark a threat as resolved (PATCH /threats/{ID}/resolve)',
			},
		],
		default: 'getAll',
	},
	...getAll.description,
	...resolve.description,
];

export const threatHandlers = { getAll: getAll.execute, resolve: resolve.execute };
