import type { INodeProperties } from 'n8n-workflow';

import { queryParametersProperty } from '../../shared/parameters/queryParameters';
import { filtersProperty } from '../../shared/polling/pollEvent';
import { POLL_EVENTS } from './events';

export const pollProperties: INodeProperties[] = [
	{
		displayName: 'Event',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		required: true,
		default: 'newThreat',
		options: POLL_EVENTS.map(({ name, value, description }) => ({ name, value, description })),
		description:
			'The list to watch. Each poll emits the records it has not emitted before, reading only the pages where new records can be.',
	},
	{
		displayName:
			'Activating the workflow emits nothing for records that exist already; later polls emit each new record once. A manual test run emits the newest record.',
		name: 'behaviourNotice',
		type: 'notice',
		default: '',
	},
	...POLL_EVENTS.map((event) => filtersProperty(event)),
	queryParametersProperty(),
];
