import type { INodeProperties } from 'n8n-workflow';

import { queryParametersProperty } from '../../shared/parameters/queryParameters';
import { TRIGGER_EVENTS, type TriggerEvent } from './triggerEvents';

function filtersProperty(event: TriggerEvent): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show: { event: [event.value] } },
		description:
			'Emit only records whose field holds one of the given values (comma-separated, not case-sensitive). A record without the field does not match. A record is emitted the first time a poll sees it matching.',
		options: event.filters.map((field) => ({
			displayName: field.displayName,
			name: field.name,
			type: 'string',
			default: '',
			placeholder: field.placeholder,
		})),
	};
}

export const triggerProperties: INodeProperties[] = [
	{
		displayName: 'Event',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		required: true,
		default: 'newThreat',
		options: TRIGGER_EVENTS.map(({ name, value, description }) => ({ name, value, description })),
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
	...TRIGGER_EVENTS.map(filtersProperty),
	queryParametersProperty(),
];
