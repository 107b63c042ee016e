import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { chain, itemsNode, packageNode, runWorkflow, startNode, type WorkflowRun } from './runWorkflow.ts';

export const SECURITY_NODE_NAME = 'Security';

export interface SecurityRunOptions {
	baseUrl: string;
	apiKey: string;
	/** Input items; one empty item when not given. */
	items?: IDataObject[];
	continueOnFail?: boolean;
}

/** Runs one Security Service node (after a start node, and an items node when `items` is given). */
export async function runSecurityNode(parameters: INodeParameters, options: SecurityRunOptions): Promise<WorkflowRun> {
	const node = packageNode('securityService', parameters, {
		name: SECURITY_NODE_NAME,
		credentials: ['securityServiceApi'],
		continueOnFail: options.continueOnFail,
	});
	const workflow = options.items ? chain(startNode(), itemsNode(options.items), node) : chain(startNode(), node);
	return await runWorkflow(workflow, {
		credentials: { securityServiceApi: { baseUrl: options.baseUrl, apiKey: options.apiKey } },
	});
}

/** A resource locator value as the editor stores it. */
export function locator(value: string, mode: 'list' | 'id' = 'list'): INodeParameters {
	return { __rl: true, mode, value };
}
