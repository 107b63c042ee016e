import type { INodeProperties } from 'n8n-workflow';

import type { PollEvent } from './pollEvents';

const NEW_RECORD_FILTERS =
	'Emit only records whose field holds one of the given values (comma-separated, not case-sensitive). A record without the field does not match. A record is emitted the first time a poll sees it matching.';

/** The event's "Filters" collection, one comma-separated text field per filter it declares. */
export function filtersProperty(
	event: PollEvent,
	description = NEW_RECORD_FILTERS,
): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show: { event: [event.value] } },
		description,
		options: event.filters.map((field) => ({
			displayName: field.displayName,
			name: field.name,
			type: 'string',
			default: '',
			placeholder: field.placeholder,
		})),
	};
}
