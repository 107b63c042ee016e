import { resourceOperations } from '../../../shared/parameters/resourceAndOperation';
import * as getAll from './getAll.operation';

export const auditResource = resourceOperations(
	'audit',
	[
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many audits',
			description:
				'List the newest page-performance audits across every site of the organisation, up to 100',
		},
	],
	'getAll',
	{ getAll },
);
