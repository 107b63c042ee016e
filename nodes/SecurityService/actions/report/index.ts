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
		action: 'Get many reports',
		description: 'List the security reports of the sites',
	},
] as const;

export const reportOperations: INodeProperties[] = [
	operationProperty('report', operations, 'getAll'),
	...getAll.description,
];

export const reportHandlers = {
	getAll: getAll.execute,
} satisfies HandlersFor<typeof operations>;
