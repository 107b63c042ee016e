import type { IDataObject } from 'n8n-workflow';

/** Reading the records the services return, whose field shapes are not all published. */

/** A JSON object: not null, not an array. */
export function isRecord(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value as a record: an object as it is, anything else as `{ value }`. */
export function asRecord(value: unknown): IDataObject {
	return isRecord(value) ? value : { value: value as IDataObject[string] };
}

/** A non-blank string, trimmed; anything else (numbers too) as undefined. */
export function nonBlankString(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** A non-blank string (trimmed) or a finite number as text, e.g. an ID; anything else as undefined. */
export function textOf(value: unknown): string | undefined {
	return typeof value === 'number' && Number.isFinite(value)
		? String(value)
		: nonBlankString(value);
}

/** A finite number, or a non-blank string holding one; anything else as undefined. */
export function numberOf(value: unknown): number | undefined {
	const parsed = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	return typeof parsed === 'number' && Number.isFinite(parsed) ? parsed : undefined;
}

/** Case-insensitive: does any of the record's text fields contain the filter? An empty filter matches all. */
export function recordContains(
	record: IDataObject,
	fields: string[],
	filter: string | undefined,
): boolean {
	const wanted = filter?.trim().toLowerCase();
	if (!wanted) return true;
	return fields.some((field) => (textOf(record[field]) ?? '').toLowerCase().includes(wanted));
}

/**
 * The record a single-object response describes: the body itself, or the object it wraps alone
 * under the record's singular name or `data` (`{ "site": {...} }`). An empty answer (`{}` or no
 * body) becomes `whenEmpty` when given; any other value becomes `{ value }`.
 */
export function unwrapRecord(
	body: unknown,
	singular: string,
	whenEmpty?: IDataObject,
): IDataObject {
	if (isRecord(body) && Object.keys(body).length > 0) {
		const keys = Object.keys(body);
		const inner = body[keys[0]];
		return keys.length === 1 && (keys[0] === singular || keys[0] === 'data') && isRecord(inner)
			? inner
			: body;
	}
	return whenEmpty ?? asRecord(body);
}

/** Date fields a record may carry, most telling first, each as `createdAt` and as `created_at`. */
const RECORD_DATE_FIELDS = [
	...['created', 'detected', 'started', 'published', 'finished', 'updated'].flatMap((event) => [
		`${event}At`,
		`${event}_at`,
	]),
	'date',
	'timestamp',
];

/**
 * The time of a record in epoch milliseconds, from the first of `fields` that holds a date
 * (text `Date.parse` reads, or a number of milliseconds); undefined when none does.
 */
export function recordTime(
	record: IDataObject,
	fields: readonly string[] = RECORD_DATE_FIELDS,
): number | undefined {
	for (const field of fields) {
		const value = record[field];
		const time =
			typeof value === 'string' ? Date.parse(value) : typeof value === 'number' ? value : NaN;
		if (Number.isFinite(time)) return time;
	}
	return undefined;
}
