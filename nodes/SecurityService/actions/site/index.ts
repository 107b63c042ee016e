import type { INodeProperties } from 'n8n-workflow';

import {
	operationProperty,
	type HandlersFor,
} from '../../../shared/parameters/resourceAndOperation';
import * as create from './create.operation';
import * as getAll from './getAll.operation';

const operations = [
	{
		name: 'Create',
		value: 'create',
		action: 'Create site',
		description: 'Add a site for the service to protect',
	},
	{
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many sites',
		description: 'List the sites of the tenant',
	},
] as const;

export const siteOperations: INodeProperties[] = [
	operationProperty('site', operations, 'getAll'),
	...create.description,
	...getAll.description,
];

export const siteHandlers = {
	create: create.execute,
	getAll: getAll.execute,
} satisfies HandlersFor<typeof operations>;
