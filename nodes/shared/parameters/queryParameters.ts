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

/** Reads the pairs into a query object; a name given twice is sent twice. Unnamed rows are skipped. */
export function readQueryParameters(value: unknown): IDataObject {
	type Entry = { name?: unknown; value?: unknown };
	const entries = (value as { parameters?: Entry[] } | undefined)?.parameters;
	const qs: IDataObject = {};
	if (!Array.isArray(entries)) return qs;
	for (const { name, value: raw } of entries) {
		const key = typeof name === 'string' ? name.trim() : '';
		if (key === '') continue;
		const text = raw === undefined || raw === null ? '' : String(raw);
		const existing = qs[key] as string | string[] | undefined;
		qs[key] = existing === undefined ? text : [existing, text].flat();
	}
	return qs;
}
