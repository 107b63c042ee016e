import { describe, expect, it } from 'vitest';

import { matchesFilters, readFilters } from '../../../../nodes/shared/polling/recordFilters.ts';

describe('record filters', () => {
	const threatEvent = {
		filters: [
			{ name: 'severity', displayName: 'Severity', fields: ['severity'], placeholder: '' },
			{ name: 'status', displayName: 'Status', fields: ['status'], placeholder: '' },
			{ name: 'siteId', displayName: 'Site ID', fields: ['siteId', 'site_id'], placeholder: '' },
		],
	};

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
