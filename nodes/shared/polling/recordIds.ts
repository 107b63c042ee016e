import { NodeOperationError, type IDataObject, type INode } from 'n8n-workflow';

import { textOf } from '../lists/recordFields';

export interface IdentifiedRecord {
	id: string;
	record: IDataObject;
}

/**
 * Pairs each record with its `id`, keeping the first of duplicates (pages may shift while read).
 * Records without one make the whole poll fail: without IDs nothing can be told apart.
 */
export function identifyRecords(
	node: INode,
	records: IDataObject[],
	plural: string,
	serviceName: string,
): IdentifiedRecord[] {
	const identified: IdentifiedRecord[] = [];
	const seen = new Set<string>();
	const missing: IDataObject[] = [];
	for (const record of records) {
		const id = textOf(record.id);
		if (id === undefined) {
			missing.push(record);
			continue;
		}
		if (seen.has(id)) continue;
		seen.add(id);
		identified.push({ id, record });
	}
	if (missing.length > 0) {
		const fields = Object.keys(missing[0]).slice(0, 10);
		throw new NodeOperationError(
			node,
			`${missing.length} of ${records.length} ${plural} in the list have no "id" field, so new ones cannot be told apart`,
			{
				description: `Nothing was emitted and the trigger's memory is unchanged. Fields of the first record without an ID: ${
					fields.length > 0 ? fields.join(', ') : 'none'
				}. Check that the base URL in the credential points at the ${serviceName} API; if the service lists records without IDs, use the ${serviceName} node's "Get Many" on a schedule instead.`,
			},
		);
	}
	return identified;
}
