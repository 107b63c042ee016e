import type { INode } from 'n8n-workflow';

import type { IdentifiedRecord } from '../../../../nodes/shared/polling/recordIds.ts';

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
