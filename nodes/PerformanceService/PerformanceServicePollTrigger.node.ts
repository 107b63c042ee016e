import {
	NodeConnectionTypes,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { pollTrigger, type PollTrigger } from '../shared/polling/pollFunctions';
import { searchSites } from './methods/searchSites';
import { POLL_EVENTS } from './pollTrigger/events';
import { pollProperties } from './pollTrigger/properties';
import { PERFORMANCE_SERVICE } from './transport';

const PERFORMANCE_POLLS: PollTrigger = { profile: PERFORMANCE_SERVICE, events: POLL_EVENTS };

export class PerformanceServicePollTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Performance Service Poll Trigger',
		name: 'performanceServicePollTrigger',
		icon: {
			light: 'file:performanceService.svg',
			dark: 'file:performanceService.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{{newSite: "New Site", newAudit: "New Audit", siteStatusChanged: "Site Status Changed"}[$parameter["event"]]}}',
		description:
			'Polls the performance service every few minutes for new sites, new audits and site status changes; works where the service cannot reach n8n (no public URL needed)',
		defaults: { name: 'Performance Service Poll Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'performanceServiceApi', required: true }],
		properties: pollProperties,
	};

	methods = {
		listSearch: { searchSites },
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollTrigger(this, PERFORMANCE_POLLS);
	}
}
