import {
	NodeConnectionTypes,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { pollTrigger, type PollTrigger } from '../shared/polling/pollFunctions';
import { POLL_EVENTS } from './pollTrigger/events';
import { pollProperties } from './pollTrigger/properties';
import { SECURITY_SERVICE } from './transport';

const SECURITY_POLLS: PollTrigger = { profile: SECURITY_SERVICE, events: POLL_EVENTS };

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
		properties: pollProperties,
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollTrigger(this, SECURITY_POLLS);
	}
}
