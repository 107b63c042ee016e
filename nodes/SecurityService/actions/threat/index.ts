import type { INodeProperties } from 'n8n-workflow';

import {
	operationProperty,
	type HandlersFor,
} from '../../../shared/parameters/resourceAndOperation';
import * as getAll from './getAll.operation';
import * as resolve from './resolve.operation';

const operations = [
	{
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many threats',
		description: 'List the threats found on the sites',
	},
	{
		name: 'Resolve',
		value: 'resolve',
		action: 'Resolve threat',
		description: 'Mark a threat as resolved',
	},
] as const;

export const threatOperations: INodeProperties[] = [
	operationProperty('threat', operations, 'getAll'),
	...getAll.description,
	...resolve.description,
];

export const threatHandlers = {
	getAll: getAll.execute,
	resolve: resolve.execute,
} satisfies HandlersFor<typeof operations>;
