import { resourceOperations } from '../../../shared/parameters/resourceAndOperation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as reoptimize from './reoptimize.operation';

export const siteResource = resourceOperations(
	'site',
	[
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
	],
	'getAll',
	{ getAll, get, reoptimize },
);
