import type { INodeProperties } from 'n8n-workflow';

import { queryParametersProperty } from '../../shared/parameters/queryParameters';
import { filtersProperty } from '../../shared/polling/pollEvent';
import { POLL_EVENTS } from './events';

/** The parameters of both security triggers: the event, a notice on what they emit, its filters and query parameters. */
export function eventProperties(eventDescription: string, notice: string): INodeProperties[] {
	return [
		{
			displayName: 'Event',
			name: 'event',
			type: 'options',
			noDataExpression: true,
			required: true,
			default: 'newThreat',
			options: POLL_EVENTS.map(({ name, value, description }) => ({ name, value, description })),
			description: eventDescription,
		},
		{ displayName: notice, name: 'behaviourNotice', type: 'notice', default: '' },
		...POLL_EVENTS.map((event) => filtersProperty(event)),
		queryParametersProperty(),
	];
}

export const pollProperties = eventProperties(
	'The list to watch. Each poll emits the records it has not emitted before, reading only the pages where new records can be.',
	'Activating the workflow emits nothing for records that exist already; later polls emit each new record once. A manual test run emits the newest record.',
);
