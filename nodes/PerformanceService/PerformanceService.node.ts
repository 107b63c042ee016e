import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { runOperations } from '../shared/runOperations';
import { searchSites } from './listSearch/searchSites';
import { auditHandlers, auditOperations } from './resources/audit';
import { siteHandlers, siteOperations } from './resources/site';
import { systemHandlers, systemOperations } from './resources/system';

export class PerformanceService implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Performance Service',
		name: 'performanceService',
		icon: { light: 'file:performanceService.svg', dark: 'file:performanceService.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Read the sites, audits and health of the performance-monitoring service, and trigger site reoptimizations',
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
				options: [
					{ name: 'Audit', value: 'audit' },
					{ name: 'Site', value: 'site' },
					{ name: 'System', value: 'system' },
				],
				default: 'site',
			},
			...siteOperations,
			...auditOperations,
			...systemOperations,
		],
	};

	methods = {
		listSearch: { searchSites },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runOperations(this, { site: siteHandlers, audit: auditHandlers, system: systemHandlers });
	}
}
