import {
	NodeConnectionTypes,
	type IHookFunctions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { BODY_NOT_PARSED, RECORDED_BEFORE_ANSWER } from '../shared/webhooks/n8nWebhookContract';
import { eventProperties } from './pollTrigger/properties';
import { forgetList, handleRing, keepsMemory, rememberList } from './webhookTrigger/rings';

export class SecurityServiceWebhookTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Security Service Webhook Trigger',
		name: 'securityServiceWebhookTrigger',
		icon: {
			light: 'file:securityService.svg',
			dark: 'file:securityService.dark.svg',
		},
		group: ['trigger'],
		// Version 1 with BODY_NOT_PARSED on purpose (n8nWebhookContract.ts, A8): a body that is not JSON still rings.
		version: 1,
		subtitle: '={{"New " + $parameter["event"].slice(3)}}',
		description:
			'Starts the workflow within seconds when the security service calls its webhook: each call reads the list and emits what is new',
		defaults: { name: 'Security Service Webhook Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'securityServiceApi', required: true }],
		webhooks: [RECORDED_BEFORE_ANSWER],
		eventTriggerDescription: 'Waiting for a call to the Test URL',
		activationMessage:
			"Calls to the Production URL now read the list and start this workflow for each new record. Make sure the URL is entered in the security service's webhook settings.",
		triggerPanel: {
			header: 'Enter the webhook URL in the security service',
			executionsHelp: {
				inactive:
					'While you build the workflow, click "Listen for test event" and call the Test URL (or let the service call it): the newest record of the list starts one test run. Publish the workflow and enter the Production URL in the service\'s webhook settings to run it for every new record.',
				active:
					'The workflow is published: every call to the Production URL reads the list and starts it once for the new records. Executions appear in the Executions list.',
			},
			activationHint:
				"Once you have finished building the workflow, publish it and enter the Production URL in the security service's webhook settings.",
		},
		properties: [
			...eventProperties(
				'The list to read on each call of the webhook. Each call emits the records not emitted before, reading only the pages where new records can be.',
				'Publishing the workflow remembers the records the list holds; they are never emitted. Each call of the webhook then reads the list and emits each new record once, whatever the call contains. A test event emits the newest record.',
			),
			BODY_NOT_PARSED,
		],
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return keepsMemory(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				// A test listen needs no memory: a test ring emits the newest record.
				if (this.getMode() !== 'manual') await rememberList(this);
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				forgetList(this);
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await handleRing(this);
	}
}
