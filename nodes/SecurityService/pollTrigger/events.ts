import type { FilterField, PollEvent } from '../../shared/polling/pollEvent';

const SITE: FilterField = {
	name: 'siteId',
	displayName: 'Site ID',
	fields: ['siteId', 'site_id'],
	placeholder: 'e.g. st_1, st_2',
};

/** A filter on the record field of its name. */
function fieldFilter(name: string, displayName: string, placeholder: string): FilterField {
	return { name, displayName, fields: [name], placeholder };
}

export const POLL_EVENTS: PollEvent[] = [
	{
		value: 'newThreat',
		name: 'New Threat',
		description: 'A threat appears in the threat list',
		path: '/threats',
		plural: 'threats',
		filters: [
			fieldFilter('severity', 'Severity', 'e.g. critical, high'),
			fieldFilter('status', 'Status', 'e.g. open'),
			fieldFilter('type', 'Type', 'e.g. malware'),
			SITE,
		],
	},
	{
		value: 'newScan',
		name: 'New Scan',
		description: 'A scan appears in the scan list',
		path: '/scans',
		plural: 'scans',
		filters: [fieldFilter('status', 'Status', 'e.g. completed, failed'), SITE],
	},
	{
		value: 'newUpdate',
		name: 'New Update',
		description: 'An available update appears in the update list',
		path: '/updates',
		plural: 'updates',
		filters: [fieldFilter('type', 'Type', 'e.g. core, plugin'), SITE],
	},
	{
		value: 'newReport',
		name: 'New Report',
		description: 'A report appears in the report list',
		path: '/reports',
		plural: 'reports',
		filters: [SITE],
	},
];
