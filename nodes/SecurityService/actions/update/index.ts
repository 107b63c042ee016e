import type { INodeProperties } from 'n8n-workflow';

import {
	operationProperty,
	type HandlersFor,
} from '../../../shared/parameters/resourceAndOperation';
import * as getAll from './getAll.operation';

const operations = [
	{
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many updates',
		description: 'List the core, plugin and theme updates available for the sites',
	},
] as const;

export const updateOperations: INodeProperties[] = [
	operationProperty('update', operations, 'getAll'),
	...getAll.description,
];

export const updateHandlers = {
	getAll: getAll.execute,
} satisfies HandlersFor<typeof operations>;
