import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import {
	resourceProperty,
	type ResourceHandlersFor,
} from '../shared/parameters/resourceAndOperation';
import { itemOptionsProperty } from '../shared/actions/parallelItems';
import { runOperations } from '../shared/actions/router';
import { searchSites } from './methods/searchSites';
import { auditHandlers, auditOperations } from './actions/audit';
import { siteHandlers, siteOperations } from './actions/site';
import { systemHandlers, systemOperations } from './actions/system';

const resources = [
	{ name: 'Audit', value: 'audit' },
	{ name: 'Site', value: 'site' },
	{ name: 'System', value: 'system' },
] as const;

const handlers = {
	site: siteHandlers,
	audit: auditHandlers,
	system: systemHandlers,
} satisfies ResourceHandlersFor<typeof resources>;

export class PerformanceService implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Performance Service',
		name: 'performanceService',
		icon: { light: 'file:performanceService.svg', dark: 'file:performanceService.dark.svg' },
		group: ['transform'],
		version: 2,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Read the sites, audits and health of the performance-monitoring service, and trigger site reoptimizations',
		defaults: { name: 'Performance Service' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'performanceServiceApi', required: true }],
		properties: [
			resourceProperty(resources, 'site'),
			...siteOperations,
			...auditOperations,
			...systemOperations,
			itemOptionsProperty,
		],
	};

	methods = {
		listSearch: { searchSites },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runOperations(this, handlers);
	}
}
