import type { IDataObject, INode } from 'n8n-workflow';

import type { PageRef } from '../../../nodes/shared/lists/pagedRequests.ts';
import type { EventList, IdentifiedRecord } from '../../../nodes/shared/polling/listRecords.ts';

/** The node the trigger's modules name in their errors. */
export const node = {
	name: 'Trigger',
	type: 'test',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
	id: 'n',
} as INode;

/** Records with these IDs and no other field. */
export function records(...ids: string[]): IdentifiedRecord[] {
	return ids.map((id) => ({ id, record: { id } }));
}

/**
 * An event list over `list`, read in pages of `pageSize` (page numbers) with no time limit;
 * `fetched` records each page asked for. The cursor `gone` is refused with a 404, as a cursor the
 * service no longer knows.
 */
export function listOf(
	list: IDataObject[],
	{ pageSize = Number.MAX_SAFE_INTEGER, budgetMs = undefined as number | undefined } = {},
) {
	const fetched: Array<PageRef | undefined> = [];
	const eventList: EventList = {
		node,
		serviceName: 'Test Service',
		plural: 'records',
		budgetMs,
		readPage: async (at) => {
			fetched.push(at);
			const page = Number(at?.qs?.page ?? 1);
			if (at?.qs?.cursor === 'gone') throw Object.assign(new Error('gone'), { httpCode: '404' });
			const next = page * pageSize < list.length ? { qs: { page: page + 1 } } : undefined;
			return { records: list.slice((page - 1) * pageSize, page * pageSize), next };
		},
	};
	return { list: eventList, fetched };
}
