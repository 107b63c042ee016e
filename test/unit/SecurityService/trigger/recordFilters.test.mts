import { describe, expect, it } from 'vitest';

import {
	matchesFilters,
	readFilters,
} from '../../../../nodes/SecurityService/trigger/recordFilters.ts';
import { TRIGGER_EVENTS } from '../../../../nodes/SecurityService/trigger/triggerEvents.ts';

describe('record filters', () => {
	const threatEvent = TRIGGER_EVENTS.find((event) => event.value === 'newThreat');
	if (!threatEvent) throw new Error('newThreat missing');

	it('reads comma-separated values and ignores empty filters', () => {
		expect(
			readFilters(threatEvent, { severity: ' High, critical ', status: '', unknown: 'x' }),
		).toEqual([{ fields: ['severity'], values: ['high', 'critical'] }]);
		expect(readFilters(threatEvent, undefined)).toEqual([]);
	});

	it('matches case-insensitively, by any alias, and refuses records without the field', () => {
		const filters = readFilters(threatEvent, { severity: 'high', siteId: 'st_1' });
		expect(matchesFilters({ severity: 'HIGH', siteId: 'st_1' }, filters)).toBe(true);
		expect(matchesFilters({ severity: 'high', site_id: 'st_1' }, filters)).toBe(true);
		expect(matchesFilters({ severity: 'low', siteId: 'st_1' }, filters)).toBe(false);
		expect(matchesFilters({ siteId: 'st_1' }, filters)).toBe(false);
		expect(matchesFilters({ anything: 1 }, [])).toBe(true);
	});
});
