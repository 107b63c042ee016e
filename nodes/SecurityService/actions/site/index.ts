import { resourceOperations } from '../../../shared/parameters/resourceAndOperation';
import * as create from './create.operation';
import * as getAll from './getAll.operation';

export const siteResource = resourceOperations(
	'site',
	[
		{
			name: 'Create',
			value: 'create',
			action: 'Create site',
			description: 'Add a site for the service to protect',
		},
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many sites',
			description: 'List the sites of the tenant',
		},
	],
	'getAll',
	{ create, getAll },
);
