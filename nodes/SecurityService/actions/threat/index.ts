import { resourceOperations } from '../../../shared/parameters/resourceAndOperation';
import * as getAll from './getAll.operation';
import * as resolve from './resolve.operation';

export const threatResource = resourceOperations(
	'threat',
	[
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
	],
	'getAll',
	{ getAll, resolve },
);
