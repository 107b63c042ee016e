import { describe, expect, it } from 'vitest';

import { orderOf } from '../../../../nodes/shared/polling/recordOrder.ts';
import { records } from './records.mts';

describe('list order', () => {
	it('is told by dates that only rise or only fall, else by ID numbers, else not at all', () => {
		const at = (...times: number[]) =>
			times.map((createdAt, index) => ({ id: 'xyzw'[index], record: { createdAt } }));
		expect(orderOf(at(1, 2, 2, 3))).toBe('oldestFirst');
		expect(orderOf(at(3, 2, 1))).toBe('newestFirst');
		expect(orderOf(at(1, 3, 2))).toBeUndefined();
		expect(orderOf(records('thr_9', 'thr_10', 'thr_11'))).toBe('oldestFirst');
		expect(orderOf(records('thr_11', 'thr_2'))).toBe('newestFirst');
		expect(orderOf(records('a1', 'b2'))).toBeUndefined();
		expect(orderOf(records('thr_1'))).toBeUndefined();
	});
});
