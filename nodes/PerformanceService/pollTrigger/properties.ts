import type { INodeProperties } from 'n8n-workflow';

import { filtersProperty } from '../../shared/polling/pollEvent';
import { siteIdProperty } from '../actions/site/siteId';
import { POLL_EVENTS } from './events';

const [, newAudit, siteStatusChanged] = POLL_EVENTS;

export const pollProperties: INodeProperties[] = [
	{
		displayName: 'Event',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		required: true,
		default: 'siteStatusChanged',
		options: POLL_EVENTS.map(({ name, value, description }) => ({ name, value, description })),
		description:
			'What to watch. Each poll reads the list once and emits what is new since the previous poll.',
	},
	{
		displayName:
			'This trigger asks the service every few minutes (set under Poll Times), so it works where the service cannot reach n8n. For instant, signed deliveries to a public URL use the Performance Service Trigger. Activating the workflow emits nothing for what exists already.',
		name: 'pollNotice',
		type: 'notice',
		default: '',
	},
	{
		...siteIdProperty('getAll', 'Emit only audits of this site. Leave empty for every site.'),
		required: false,
		displayOptions: { show: { event: [newAudit.value] } },
	},
	filtersProperty(
		siteStatusChanged,
		'Emit only changes to one of the given statuses (comma-separated, not case-sensitive). Other changes are remembered, not emitted.',
	),
];
