import { NodeOperationError, type IExecuteFunctions, type INode } from 'n8n-workflow';

/** How a message names a value of the wrong type, e.g. "an object" or "true/false (true)". */
export function kindOf(value: unknown): string {
	if (value === null) return 'null';
	if (value === undefined) return 'nothing';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object') return 'an object';
	if (typeof value === 'boolean') return `true/false (${String(value)})`;
	if (typeof value === 'number') return `the number ${String(value)}`;
	return `a ${typeof value}`;
}

function refuse(node: INode, itemIndex: number, message: string, description: string): never {
	throw new NodeOperationError(node, message, { itemIndex, description });
}

/**
 * A text field read from the node: text is trimmed, a number becomes its text; nothing, null and
 * '' are ''; anything else (true/false, a list, an object) is refused naming the field, with
 * `fix` (what to do, given what the value is) as the description.
 */
export function textValue(
	node: INode,
	value: unknown,
	label: string,
	itemIndex: number,
	fix = (kind: string) =>
		`Enter the ${label} as text, or check the expression that sets it: it gives ${kind}.`,
): string {
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (value === undefined || value === null) return '';
	return refuse(
		node,
		itemIndex,
		`The ${label} must be text, not ${kindOf(value)}`,
		fix(kindOf(value)),
	);
}

/** A text parameter, as textValue reads it. */
export function readText(
	ctx: IExecuteFunctions,
	parameter: string,
	label: string,
	itemIndex: number,
): string {
	return textValue(ctx.getNode(), ctx.getNodeParameter(parameter, itemIndex, ''), label, itemIndex);
}

/**
 * A whole number: a number, or text that is one (" 10 " from a CSV or an AI agent); anything
 * else is undefined.
 */
export function wholeNumberOf(value: unknown): number | undefined {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	return typeof number === 'number' && Number.isSafeInteger(number) ? number : undefined;
}

/** A true/false parameter: true or false, or the text "true"/"false"; anything else is refused. */
export function readBoolean(
	ctx: IExecuteFunctions,
	parameter: string,
	label: string,
	itemIndex: number,
	fallback: boolean,
): boolean {
	const value = ctx.getNodeParameter(parameter, itemIndex, fallback) as unknown;
	if (typeof value === 'boolean') return value;
	const text = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
	if (text === 'true' || text === 'false') return text === 'true';
	return refuse(
		ctx.getNode(),
		itemIndex,
		`${label} must be true or false, not ${kindOf(value)}`,
		`Switch ${label} on or off, or check the expression that sets it.`,
	);
}
