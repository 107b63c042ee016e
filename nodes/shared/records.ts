import type { IDataObject } from 'n8n-workflow';

/** A JSON object: not null, not an array. */
export function isRecord(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string or number as text; anything else as "". */
export function scalarText(value: unknown): string {
	return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/** A non-blank string (trimmed) or a number as text; anything else as undefined. */
export function textOf(value: unknown): string | undefined {
	if (typeof value === 'string' && value.trim() !== '') return value.trim();
	if (typeof value === 'number') return String(value);
	return undefined;
}

/** Case-insensitive: does any of the record's text fields contain the filter? An empty filter matches all. */
export function recordContains(record: IDataObject, fields: string[], filter: string | undefined): boolean {
	const wanted = filter?.trim().toLowerCase();
	if (!wanted) return true;
	return fields.some((field) => scalarText(record[field]).toLowerCase().includes(wanted));
}
