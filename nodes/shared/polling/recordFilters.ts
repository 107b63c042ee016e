import type { IDataObject } from 'n8n-workflow';

import type { PollEvent } from './pollEvents';

/** Accepts a record when one of `fields` holds one of `values` (case-insensitive). */
export interface RecordFilter {
	fields: string[];
	values: string[];
}

/** The filters the user filled in, each a comma-separated list of accepted values. */
export function readFilters(event: Pick<PollEvent, 'filters'>, raw: unknown): RecordFilter[] {
	const given = (typeof raw === 'object' && raw !== null ? raw : {}) as IDataObject;
	const filters: RecordFilter[] = [];
	for (const field of event.filters) {
		const value = given[field.name];
		if (typeof value !== 'string' && typeof value !== 'number') continue;
		const values = String(value)
			.split(',')
			.map((entry) => entry.trim().toLowerCase())
			.filter((entry) => entry !== '');
		if (values.length > 0) filters.push({ fields: field.fields, values });
	}
	return filters;
}

/** A record lacking a filtered field does not match that filter. */
export function matchesFilters(record: IDataObject, filters: RecordFilter[]): boolean {
	return filters.every(({ fields, values }) =>
		fields.some((field) => {
			const value = record[field];
			return (
				(typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') &&
				values.includes(String(value).trim().toLowerCase())
			);
		}),
	);
}
