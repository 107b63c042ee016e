import type { IDataObject, INodeProperties } from 'n8n-workflow';

/**
 * A "Query Parameters" list of name/value pairs, sent as given: for filters and paging
 * parameters a service accepts without documenting them.
 */
export function queryParametersProperty(
	displayOptions?: INodeProperties['displayOptions'],
): INodeProperties {
	return {
		displayName: 'Query Parameters',
		name: 'queryParameters',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Query Parameter',
		default: {},
		displayOptions,
		description:
			'Name and value pairs passed to the service as they are, e.g. a filter it accepts (status = open) or a page size (per_page = 100)',
		options: [
			{
				name: 'parameters',
				displayName: 'Parameter',
				values: [
					{ displayName: 'Name', name: 'name', type: 'string', default: '' },
					{ displayName: 'Value', name: 'value', type: 'string', default: '' },
				],
			},
		],
	};
}

/** A query value as sent: text as is, a list or an object as JSON, nothing or null as ''. */
function queryText(value: unknown): string {
	if (value === undefined || value === null) return '';
	if (typeof value === 'object') return JSON.stringify(value);
	return String(value);
}

/**
 * Reads the pairs into a query object; a name given twice is sent twice. Unnamed rows are
 * skipped; a value of any type is sent as queryText writes it.
 */
export function readQueryParameters(value: unknown): IDataObject {
	type Entry = { name?: unknown; value?: unknown };
	const entries = (value as { parameters?: unknown } | undefined)?.parameters;
	const qs: IDataObject = {};
	if (!Array.isArray(entries)) return qs;
	for (const entry of entries as unknown[]) {
		const { name, value: raw } = (
			typeof entry === 'object' && entry !== null ? entry : {}
		) as Entry;
		const key = typeof name === 'string' || typeof name === 'number' ? String(name).trim() : '';
		if (key === '') continue;
		const text = queryText(raw);
		const existing = qs[key] as string | string[] | undefined;
		qs[key] = existing === undefined ? text : [existing, text].flat();
	}
	return qs;
}
