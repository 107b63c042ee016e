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
import { searchUnresolvedThreats } from './methods/searchUnresolvedThreats';
import { reportResource } from './actions/report';
import { scanResource } from './actions/scan';
import { siteResource } from './actions/site';
import { threatResource } from './actions/threat';
import { updateResource } from './actions/update';

const { properties, handlers, writes } = nodeResources(
	[
		{ name: 'Report', value: 'report', operations: reportResource },
		{ name: 'Scan', value: 'scan', operations: scanResource },
		{ name: 'Site', value: 'site', operations: siteResource },
		{ name: 'Threat', value: 'threat', operations: threatResource },
		{ name: 'Update', value: 'update', operations: updateResource },
	],
	'threat',
);

export class SecurityService implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Security Service',
		name: 'securityService',
		icon: { light: 'file:securityService.svg', dark: 'file:securityService.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Manage sites, trigger scans and read threats, updates and reports of the security service',
		defaults: { name: 'Security Service' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'securityServiceApi', required: true }],
		properties: [...properties, itemOptionsProperty],
	};

	methods = {
		listSearch: { searchSites, searchUnresolvedThreats },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runOperations(this, handlers, writes);
	}
}
