import type { INodeProperties } from 'n8n-workflow';

import * as getAll from './getAll';
import * as trigger from './trigger';

export const scanOperations: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['scan'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many scans',
				description: 'List the scans of the tenant (GET /scans)',
			},
			{
				name: 'Trigger',
				value: 'trigger',
				action: 'Trigger a scan',
				description: 'Start a security scan of a site (POST /scans/trigger)',
			},
		],
		default: 'getAll',
	},
	...getAll.description,
	...trigger.description,
];

export const scanHandlers = { getAll: getAll.execute, trigger: trigger.execute };
