import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { resourceProperty, type ResourceHandlersFor } from '../shared/operations';
import { itemOptionsProperty } from '../shared/parallelItems';
import { runOperations } from '../shared/runOperations';
import { searchSites } from './listSearch/searchSites';
import { searchUnresolvedThreats } from './listSearch/searchUnresolvedThreats';
import { reportHandlers, reportOperations } from './resources/report';
import { scanHandlers, scanOperations } from './resources/scan';
import { siteHandlers, siteOperations } from './resources/site';
import { threatHandlers, threatOperations } from './resources/threat';
import { updateHandlers, updateOperations } from './resources/update';

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
