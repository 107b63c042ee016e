import type { INodeProperties } from 'n8n-workflow';

import * as create from './create';
import * as getAll from './getAll';

export const siteOperations: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['site'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create a site',
				description: 'Add a site to protect (POST /sites)',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many sites',
				description: 'List the sites of the tenant (GET /sites)',
			},
		],
		default: 'getAll',
	},
	...create.description,
	...getAll.description,
];

export const siteHandlers = { create: create.execute, getAll: getAll.execute };
