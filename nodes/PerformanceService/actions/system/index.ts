import { resourceOperations } from '../../../shared/parameters/resourceAndOperation';
import * as getHealth from './getHealth.operation';

export const systemResource = resourceOperations(
	'system',
	[
		{
			name: 'Get Health',
			value: 'getHealth',
			action: 'Get system health',
			description: 'Read the health of the service: status, version and job queue',
		},
	],
	'getHealth',
	{ getHealth },
);
