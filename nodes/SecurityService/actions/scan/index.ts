import type { INodeProperties } from 'n8n-workflow';

import {
	operationProperty,
	type HandlersFor,
} from '../../../shared/parameters/resourceAndOperation';
import * as getAll from './getAll.operation';
import * as trigger from './trigger.operation';

const operations = [
	{
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many scans',
		description: 'List the scans of the tenant',
	},
	{
		name: 'Trigger',
		value: 'trigger',
		action: 'Trigger scan',
		description: 'Start a security scan of a site',
	},
] as const;

export const scanOperations: INodeProperties[] = [
	operationProperty('scan', operations, 'getAll'),
	...getAll.description,
	...trigger.description,
];

export const scanHandlers = {
	getAll: getAll.execute,
	trigger: trigger.execute,
} satisfies HandlersFor<typeof operations>;
