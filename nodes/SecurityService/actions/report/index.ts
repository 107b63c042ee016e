import { resourceOperations } from '../../../shared/parameters/resourceAndOperation';
import * as getAll from './getAll.operation';

export const reportResource = resourceOperations(
	'report',
	[
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many reports',
			description: 'List the security reports of the sites',
		},
	],
	'getAll',
	{ getAll },
);
