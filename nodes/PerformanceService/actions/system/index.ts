import type { INodeProperties } from 'n8n-workflow';

import {
	operationProperty,
	type HandlersFor,
} from '../../../shared/parameters/resourceAndOperation';
import * as getHealth from './getHealth.operation';

const operations = [
	{
		name: 'Get Health',
		value: 'getHealth',
		action: 'Get system health',
		description: 'Read the health of the service: status, version and job queue',
	},
] as const;

export const systemOperations: INodeProperties[] = [
	operationProperty('system', operations, 'getHealth'),
	...getHealth.description,
];

export const systemHandlers = {
	getHealth: getHealth.execute,
} satisfies HandlersFor<typeof operations>;
