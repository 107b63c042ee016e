import type { IDataObject } from 'n8n-workflow';

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The record a create/trigger/resolve call answered with: the body itself, or the object it
 * wraps under the singular name or `data` (`{ "threat": {...} }`). Empty answers become `fallback`.
 */
export function unwrapRecord(body: unknown, singular: string, fallback: IDataObject): IDataObject {
	if (!isObject(body) || Object.keys(body).length === 0) return fallback;
	const keys = Object.keys(body);
	if (keys.length === 1 && (keys[0] === singular || keys[0] === 'data') && isObject(body[keys[0]])) {
		return body[keys[0]] as IDataObject;
	}
	return body;
}
