import type { IDataObject } from 'n8n-workflow';

import { isNewestFirstStart } from './recordOrder';
import { walkFromRemembered, walkRecords, wholeList, type ListReader } from './pageWalk';
import { newestRecord } from './newestRecord';
import type { PollMemory } from './pollMemory';
import type { IdentifiedRecord } from './recordIds';

/**
 * The newest record the filters accept, for a manual run (which reads the memory, never writes
 * it): from the page that held the newest records when the polls found the list oldest first,
 * else from the first page when that lists the newest records first, else from the whole list.
 */
export async function newestListed(
	reader: ListReader,
	wanted: (record: IDataObject) => boolean,
	memory: PollMemory | undefined,
): Promise<IdentifiedRecord | undefined> {
	if (memory?.order === 'oldestFirst' && memory.tail !== undefined && !memory.seeking) {
		const fromTail = await walkFromRemembered(reader, memory.tail);
		const newest = newestRecord(walkRecords(fromTail).filter(({ record }) => wanted(record)));
		if (newest || fromTail.restarted) return newest;
	}
	const records = await wholeList(reader, isNewestFirstStart);
	return newestRecord(records.filter(({ record }) => wanted(record)));
}
