import { describe, expect, it } from 'vitest';

import { setNewest } from '../../../../nodes/PerformanceService/trigger/keepNewest.ts';

describe('setNewest', () => {
	it('keeps at most max entries, forgetting the least recently set first', () => {
		const map = new Map<string, number>();
		for (const [key, value] of [
			['a', 1],
			['b', 2],
			['c', 3],
		] as const)
			setNewest(map, key, value, 3);
		setNewest(map, 'a', 10, 3);
		setNewest(map, 'd', 4, 3);
		expect([...map]).toEqual([
			['c', 3],
			['a', 10],
			['d', 4],
		]);
	});
});
