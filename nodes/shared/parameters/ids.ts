import { NodeOperationError, type INode } from 'n8n-workflow';

import { textValue } from './values';

/** Returns the ID trimmed (a number as text); refuses an empty one and any other type. */
export function requireId(node: INode, value: unknown, label: string, itemIndex: number): string {
	const id = textValue(
		node,
		value,
		label,
		itemIndex,
		(kind) =>
			`Pick a ${label.replace(/ ID$/, '')} from the list, or enter its ID. If the ID comes from an expression, check that it gives the ID itself (e.g. {{ $json.id }}), not ${kind}.`,
	);
	if (id === '') {
		throw new NodeOperationError(node, `The ${label} is empty`, {
			itemIndex,
			description: `Pick a ${label.replace(/ ID$/, '')} from the list, or enter its ID. If the ID comes from an expression, check that the previous node returns it.`,
		});
	}
	return id;
}

/** Refuses IDs that would change the request path, then returns the ID encoded for a path segment. */
export function toPathSegment(
	node: INode,
	value: unknown,
	label: string,
	itemIndex: number,
): string {
	const id = requireId(node, value, label, itemIndex);
	if (/[/\\]/.test(id) || id.includes('..') || id === '.') {
		throw new NodeOperationError(node, `The ${label} "${id}" is not a valid ID`, {
			itemIndex,
			description: `IDs cannot contain "/", "\\" or "..". Use the ID exactly as the service returns it (for example from a "Get Many" operation).`,
		});
	}
	return encodeURIComponent(id);
}
