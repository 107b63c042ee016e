import type { INodeProperties } from 'n8n-workflow';

import {
	operationProperty,
	type HandlersFor,
} from '../../../shared/parameters/resourceAndOperation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as reoptimize from './reoptimize.operation';

const operations = [
	{
		name: 'Get',
		value: 'get',
		action: 'Get site',
		description: 'Read one site by ID with its status, audits and events',
	},
	{
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many sites',
		description: 'List the monitored sites with their status and audits',
	},
	{
		name: 'Reoptimize',
		value: 'reoptimize',
		action: 'Reoptimize site',
		description:
			'Queue critical CSS regeneration, an unused CSS scan and fresh audits for a site (needs the audits:write scope; 20 per site per hour)',
	},
] as const;

export const siteOperations: INodeProperties[] = [
	operationProperty('site', operations, 'getAll'),
	...getAll.description,
	...get.description,
	...reoptimize.description,
];

export const siteHandlers = {
	get: get.execute,
	getAll: getAll.execute,
	reoptimize: reoptimize.execute,
} satisfies HandlersFor<typeof operations>;
