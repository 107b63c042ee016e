import { NodeOperationError, type IDataObject, type INode } from 'n8n-workflow';

/** A record field a trigger can filter on; `fields` are the names it may carry. */
export interface FilterField {
	name: string;
	displayName: string;
	fields: string[];
	placeholder: string;
}

/** A status change event: which field holds the status, and the field the previous one is emitted in. */
export interface StatusChange {
	field: string;
	previousField: string;
}

/** One event of a polling trigger, declared as data: the list it polls and how its records are told apart. */
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

export function findEvent<Event extends PollEvent>(
	node: INode,
	events: readonly Event[],
	value: unknown,
): Event {
	const event = events.find((candidate) => candidate.value === value);
	if (!event) {
		throw new NodeOperationError(node, `The event "${String(value)}" is not supported`, {
			description: `Choose one of: ${events.map((candidate) => candidate.name).join(', ')}.`,
		});
	}
	return event;
}
