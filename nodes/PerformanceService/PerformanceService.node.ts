import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { nodeResources } from '../shared/parameters/resourceAndOperation';
import { itemOptionsProperty } from '../shared/actions/parallelItems';
import { runOperations } from '../shared/actions/router';
import { searchSites } from './methods/searchSites';
import { auditResource } from './actions/audit';
import { siteResource } from './actions/site';
import { systemResource } from './actions/system';

const { properties, handlers, writes } = nodeResources(
	[
		{ name: 'Audit', value: 'audit', operations: auditResource },
		{ name: 'Site', value: 'site', operations: siteResource },
		{ name: 'System', value: 'system', operations: systemResource },
	],
	'site',
);

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
		properties: [...properties, itemOptionsProperty],
	};

	methods = {
		listSearch: { searchSites },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runOperations(this, handlers, writes);
	}
}
