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
import { searchUnresolvedThreats } from './methods/searchUnresolvedThreats';
import { reportHandlers, reportOperations } from './actions/report';
import { scanHandlers, scanOperations } from './actions/scan';
import { siteHandlers, siteOperations } from './actions/site';
import { threatHandlers, threatOperations } from './actions/threat';
import { updateHandlers, updateOperations } from './actions/update';

const resources = [
	{ name: 'Report', value: 'report' },
	{ name: 'Scan', value: 'scan' },
	{ name: 'Site', value: 'site' },
	{ name: 'Threat', value: 'threat' },
	{ name: 'Update', value: 'update' },
] as const;

const handlers = {
	site: siteHandlers,
	scan: scanHandlers,
	threat: threatHandlers,
	update: updateHandlers,
	report: reportHandlers,
} satisfies ResourceHandlersFor<typeof resources>;

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
		properties: [
			resourceProperty(resources, 'threat'),
			...siteOperations,
			...scanOperations,
			...threatOperations,
			...updateOperations,
			...reportOperations,
			itemOptionsProperty,
		],
	};

	methods = {
		listSearch: { searchSites, searchUnresolvedThreats },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runOperations(this, handlers);
	}
}
