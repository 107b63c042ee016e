import type { INodeProperties } from 'n8n-workflow';

import { PERFORMANCE_EVENT_TYPES, type PerformanceEventType } from '../transport/serviceValues';

import { ALL_EVENTS, DEFAULT_DUPLICATE_WINDOW_HOURS } from './delivery';
import { DEFAULT_TOLERANCE_SECONDS } from './webhookSignature';

/** How each event type the service delivers is shown: the type checker asks for every one. */
const EVENTS: Record<PerformanceEventType, { name: string; description: string }> = {
	'alert.opened': { name: 'Alert Opened', description: 'An alert is opened' },
	'alert.resolved': { name: 'Alert Resolved', description: 'An alert is resolved' },
	'artifact.published': {
		name: 'Artifact Published',
		description: 'Critical CSS or unused CSS is regenerated, e.g. after a reoptimization',
	},
	'audit.completed': { name: 'Audit Completed', description: 'A page-performance audit finishes' },
	'audit.regression': { name: 'Audit Regression', description: 'A metric drops past its target' },
	'site.added': { name: 'Site Added', description: 'A site is added' },
};

export const triggerProperties: INodeProperties[] = [
	{
		displayName:
			"Copy the Production URL from 'Webhook URLs' above into the Optimize → Integrations section of the performance service, together with the same signing secret as 'Webhook Signing Secret' on the credential. The service has no API to register webhooks, so activating this workflow registers nothing: the URL must be entered there by hand. Use the Test URL only while testing in the editor.",
		name: 'setupNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		default: [ALL_EVENTS],
		description:
			'The event types that start the workflow. Verified deliveries of other types are acknowledged and start nothing.',
		// The event types by name, with "All Events" among them.
		options: [
			...PERFORMANCE_EVENT_TYPES.map((value) => ({ ...EVENTS[value], value })),
			{
				name: 'All Events',
				value: ALL_EVENTS,
				description: 'Every event type, including ones the service adds later',
			},
		].sort((a, b) => a.name.localeCompare(b.name)),
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Duplicate Window (Hours)',
				name: 'duplicateWindowHours',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 720 },
				default: DEFAULT_DUPLICATE_WINDOW_HOURS,
				description:
					"A verified delivery of an event that already started this workflow within this many hours (same event ID, or the same content when it has no ID) is acknowledged as a duplicate and starts nothing. The default covers all 5 of the service's delivery attempts. 0 turns the check off; an empty or non-numeric value uses the default.",
			},
			{
				displayName: 'Include Delivery Headers',
				name: 'includeDeliveryHeaders',
				type: 'boolean',
				default: false,
				description:
					"Whether to add a '_delivery' field with the delivery's headers, the time the delivery was received and which signing secret (current or previous) verified it",
			},
			{
				displayName: 'Timestamp Tolerance (Seconds)',
				name: 'timestampTolerance',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: DEFAULT_TOLERANCE_SECONDS,
				description:
					'Deliveries whose timestamp is older, or further in the future, than this are rejected as possible replays. 0 turns the age check off; an empty or non-numeric value uses the default.',
			},
		],
	},
];
