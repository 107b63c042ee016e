import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { StatusChange } from './statusChanges';

/** A record field a trigger can filter on; `fields` are the names it may carry. */
export interface FilterField {
	name: string;
	displayName: string;
	fields: string[];
	placeholder: string;
	/** Filled from this node parameter (a resource locator) rather than from the Filters collection. */
	parameter?: string;
}

/** One event of a poll trigger, declared as data: the list it polls and how its records are told apart. */
export interface PollEvent {
	value: string;
	name: string;
	description: string;
	/** The list endpoint, below the credential's base URL. */
	path: string;
	/** Records are told apart by their `id`; `plural` names them in messages and unwraps the list. */
	plural: string;
	/** Query parameters every request of the list carries. */
	qs?: IDataObject;
	/** The token scope the list needs, named in the message when it is missing. */
	scope?: string;
	/** Undefined: a new record event (a record not listed before); set: a status change event. */
	statusChange?: StatusChange;
	filters: FilterField[];
}

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
		options: event.filters
			.filter((field) => field.parameter === undefined)
			.map((field) => ({
				displayName: field.displayName,
				name: field.name,
				type: 'string',
				default: '',
				placeholder: field.placeholder,
			})),
	};
}
