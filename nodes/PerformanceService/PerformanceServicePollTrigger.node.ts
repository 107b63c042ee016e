import {
	NodeConnectionTypes,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { textOf } from '../shared/lists/recordFields';
import { findEvent } from '../shared/polling/pollEvents';
import { pollEvent, type PollService } from '../shared/polling/pollTrigger';
import { readFilters, type RecordFilter } from '../shared/polling/recordFilters';
import { searchSites } from './methods/searchSites';
import { PERFORMANCE_SERVICE, performanceListPage } from './transport';
import { AUDIT_SITE, POLL_EVENTS } from './pollTrigger/pollEvents';
import { pollProperties } from './pollTrigger/pollProperties';

const PERFORMANCE_LISTS: PollService = {
	profile: PERFORMANCE_SERVICE,
	listPage: performanceListPage,
};

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
		const event = findEvent(this.getNode(), POLL_EVENTS, this.getNodeParameter('event'));
		const filters: RecordFilter[] = readFilters(event, this.getNodeParameter('filters', {}));
		if (event.filters.includes(AUDIT_SITE)) {
			const siteId = textOf(this.getNodeParameter('siteId', '', { extractValue: true }));
			if (siteId) filters.push({ fields: AUDIT_SITE.fields, values: [siteId.toLowerCase()] });
		}
		return await pollEvent(this, PERFORMANCE_LISTS, event, { qs: {}, filters });
	}
}
