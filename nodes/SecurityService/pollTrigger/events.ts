import type { FilterField, PollEvent } from '../../shared/polling/pollEvent';

export interface SecurityPollEvent extends PollEvent {
	value: 'newThreat' | 'newScan' | 'newUpdate' | 'newReport';
}

const SITE: FilterField = {
	name: 'siteId',
	displayName: 'Site ID',
	fields: ['siteId', 'site_id'],
	placeholder: 'e.g. st_1, st_2',
};

export const POLL_EVENTS: SecurityPollEvent[] = [
	{
		value: 'newThreat',
		name: 'New Threat',
		description: 'A threat appears in the threat list',
		path: '/threats',
		plural: 'threats',
		filters: [
			{
				name: 'severity',
				displayName: 'Severity',
				fields: ['severity'],
				placeholder: 'e.g. critical, high',
			},
			{ name: 'status', displayName: 'Status', fields: ['status'], placeholder: 'e.g. open' },
			{ name: 'type', displayName: 'Type', fields: ['type'], placeholder: 'e.g. malware' },
			SITE,
		],
	},
	{
		value: 'newScan',
		name: 'New Scan',
		description: 'A scan appears in the scan list',
		path: '/scans',
		plural: 'scans',
		filters: [
			{
				name: 'status',
				displayName: 'Status',
				fields: ['status'],
				placeholder: 'e.g. completed, failed',
			},
			SITE,
		],
	},
	{
		value: 'newUpdate',
		name: 'New Update',
		description: 'An available update appears in the update list',
		path: '/updates',
		plural: 'updates',
		filters: [
			{ name: 'type', displayName: 'Type', fields: ['type'], placeholder: 'e.g. core, plugin' },
			SITE,
		],
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
