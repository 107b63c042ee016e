import type { IDataObject } from 'n8n-workflow';

import { orderOf } from './listOrder';
import { walkRecords, type ListReader } from './listPages';
import { newestRecord } from './newestRecord';
import type { IdentifiedRecord } from './recordIds';

/**
 * The newest record the filters accept, for a manual run: the first page is enough when it
 * lists the newest records first; otherwise the whole list is read.
 */
export async function newestListed(
	reader: ListReader,
	wanted: (record: IDataObject) => boolean,
): Promise<IdentifiedRecord | undefined> {
	const walk = await reader.walk(
		undefined,
		(page) => page.ref === undefined && orderOf(page.records) === 'newestFirst',
	);
	return newestRecord(walkRecords(walk).filter(({ record }) => wanted(record)));
}
