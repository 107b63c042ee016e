import { resourceOperations } from '../../../shared/parameters/resourceAndOperation';
import * as getAll from './getAll.operation';
import * as trigger from './trigger.operation';

export const scanResource = resourceOperations(
	'scan',
	[
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
	],
	'getAll',
	{ getAll, trigger },
);
