import {
	NodeConnectionTypes,
	type IHookFunctions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { assertSigningSecret, handleDelivery } from './trigger/delivery';
import { RECORDED_BEFORE_ANSWER } from '../shared/webhooks/n8nWebhookContract';
import { triggerProperties } from './trigger/triggerProperties';

export class PerformanceServiceTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Performance Service Trigger',
		name: 'performanceServiceTrigger',
		icon: {
			light: 'file:performanceService.svg',
			dark: 'file:performanceService.dark.svg',
		},
		group: ['trigger'],
		// Above 1 on purpose: n8n evaluates an expression before every webhook call of a start
		// node of version 1 (`parseRequestBody` in n8n's webhook-helpers).
		version: 1.1,
		subtitle: '={{"Events: " + $parameter["events"].join(", ")}}',
		description:
			'Starts the workflow on signed webhook deliveries of the performance service, verified before anything else',
		defaults: { name: 'Performance Service Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'performanceServiceApi', required: true }],
		webhooks: [RECORDED_BEFORE_ANSWER],
		eventTriggerDescription: 'Waiting for a delivery to the Test URL',
		activationMessage:
			'Deliveries to the Production URL now start this workflow. Make sure the URL and signing secret are entered in Optimize → Integrations.',
		triggerPanel: {
			header: 'Enter the webhook URL in the performance service',
			executionsHelp: {
				inactive:
					'While you build the workflow, enter the Test URL in Optimize → Integrations and click "Listen for test event"; the next verified delivery starts one test run. Activate the workflow and switch the service to the Production URL to run it on every delivery.',
				active:
					'The workflow is active: every verified delivery to the Production URL starts it. Executions appear in the Executions list.',
			},
			activationHint:
				'Once you have finished building the workflow, activate it and enter the Production URL in Optimize → Integrations.',
		},
		properties: triggerProperties,
	};

	/**
	 * The service has no API to register or remove webhooks: the user enters the URL and the
	 * signing secret in its Optimize → Integrations section. So these methods register nothing.
	 * `checkExists` still guards activation: without a signing secret every delivery would be
	 * rejected, so the trigger refuses to activate (fail closed).
	 */
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				await assertSigningSecret(this);
				// Nothing to look up on the service side: report the webhook as present.
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				// Not reached while checkExists answers true; nothing to register on the service.
				await assertSigningSecret(this);
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				// Nothing was registered: the user removes the URL in Optimize → Integrations.
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await handleDelivery(this);
	}
}
