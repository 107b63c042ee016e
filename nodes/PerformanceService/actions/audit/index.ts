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
		action: 'Get many audits',
		description:
			'List the newest page-performance audits across every site of the organisation, up to 100',
	},
] as const;

export const auditOperations: INodeProperties[] = [
	operationProperty('audit', operations, 'getAll'),
	...getAll.description,
];

export const auditHandlers = {
	getAll: getAll.execute,
} satisfies HandlersFor<typeof operations>;
