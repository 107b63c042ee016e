import {
	NodeConnectionTypes,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { readQueryParameters } from '../shared/parameters/queryParameters';
import { findEvent } from '../shared/polling/pollEvents';
import { pollEvent, type PollService } from '../shared/polling/pollTrigger';
import { readFilters } from '../shared/polling/recordFilters';
import { SECURITY_SERVICE, securityListPage } from './transport';
import { triggerProperties } from './trigger/triggerProperties';
import { TRIGGER_EVENTS } from './trigger/triggerEvents';

const SECURITY_LISTS: PollService = { profile: SECURITY_SERVICE, listPage: securityListPage };

export class SecurityServiceTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Security Service Trigger',
		name: 'securityServiceTrigger',
		icon: {
			light: 'file:securityService.svg',
			dark: 'file:securityService.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{"New " + $parameter["event"].slice(3)}}',
		description:
			'Starts the workflow when the security service lists a new threat, scan, update or report',
		defaults: { name: 'Security Service Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'securityServiceApi', required: true }],
		properties: triggerProperties,
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const event = findEvent(this.getNode(), TRIGGER_EVENTS, this.getNodeParameter('event'));
		return await pollEvent(this, SECURITY_LISTS, event, {
			qs: readQueryParameters(this.getNodeParameter('queryParameters', {})),
			filters: readFilters(event, this.getNodeParameter('filters', {})),
		});
	}
}
