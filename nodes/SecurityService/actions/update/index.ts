import { resourceOperations } from '../../../shared/parameters/resourceAndOperation';
import * as getAll from './getAll.operation';

export const updateResource = resourceOperations(
	'update',
	[
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many updates',
			description: 'List the core, plugin and theme updates available for the sites',
		},
	],
	'getAll',
	{ getAll },
);
