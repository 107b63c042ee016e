import { describe, expect, it } from 'vitest';

import { newestRecord } from '../../../../nodes/shared/polling/newestRecord.ts';
import type { IdentifiedRecord } from '../../../../nodes/shared/polling/recordIds.ts';
import { records } from './records.mts';

describe('newest record', () => {
	it('is the latest by date when every record has one', () => {
		const list: IdentifiedRecord[] = [
			{ id: 'b', record: { id: 'b', detectedAt: '2024-06-02T00:00:00Z' } },
			{ id: 'a', record: { id: 'a', detectedAt: '2024-06-03T00:00:00Z' } },
			{ id: 'c', record: { id: 'c', createdAt: '2024-06-01T00:00:00Z' } },
		];
		expect(newestRecord(list)?.id).toBe('a');
	});

	it('falls back to the number ending the IDs, then to the last record', () => {
		expect(newestRecord(records('upd_9', 'upd_10', 'upd_2'))?.id).toBe('upd_10');
		const undated: IdentifiedRecord[] = [
			{ id: 'scn_7', record: { id: 'scn_7', startedAt: '2024-06-01T00:00:00Z' } },
			{ id: 'scn_8', record: { id: 'scn_8', startedAt: null } },
		];
		expect(newestRecord(undated)?.id).toBe('scn_8');
		expect(newestRecord(records('b3f1-x', 'a9c2-y'))?.id).toBe('a9c2-y');
		expect(newestRecord([])).toBeUndefined();
	});
});
