import type { INodeProperties } from 'n8n-workflow';

import * as getHealth from './getHealth';

export const systemOperations: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['system'] } },
		options: [
			{
				name: 'Get Health',
				value: 'getHealth',
				action: 'Get system health',
				description: 'Read the health of the service: status, version and job queue',
			},
		],
		default: 'getHealth',
	},
	...getHealth.description,
];

export const systemHandlers = { getHealth: getHealth.execute };
