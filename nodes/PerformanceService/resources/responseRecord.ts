import type { IDataObject } from 'n8n-workflow';

function isRecord(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The record a single-object response describes. Response shapes are not all published, so a
 * record wrapped under its singular name (`{ "site": {...} }`) is unwrapped and a bare value
 * becomes `{ value }`.
 */
export function responseRecord(body: unknown, singular: string): IDataObject {
	if (!isRecord(body)) return { value: body as IDataObject[string] };
	const inner = body[singular];
	const keys = Object.keys(body);
	return keys.length === 1 && isRecord(inner) ? inner : body;
}
