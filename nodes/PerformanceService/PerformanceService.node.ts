import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { runOperations } from '../shared/runOperations';
import { systemHandlers, systemOperations } from './resources/system';

export class PerformanceService implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Performance Service',
		name: 'performanceService',
		icon: { light: 'file:performanceService.svg', dark: 'file:performanceService.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Read sites, audits and system health of the performance service, and trigger reoptimizations',
		defaults: { name: 'Performance Service' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'performanceServiceApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [{ name: 'System', value: 'system' }],
				default: 'system',
			},
			...systemOperations,
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runOperations(this, { system: systemHandlers });
	}
}
