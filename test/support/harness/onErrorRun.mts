import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { NODE_UNDER_TEST, type NodeError } from './runNode.mts';
import {
	chain,
	itemsNode,
	packageNode,
	runWorkflow,
	startNode,
	type Credentials,
} from './runWorkflow.mts';

/** n8n's "Settings → On Error" values that keep the workflow running. */
export type OnError = 'continueRegularOutput' | 'continueErrorOutput';

export interface OnErrorRun {
	/** The success output (output 0). */
	success: INodeExecutionData[];
	/** The error output (output 1; only with "Continue (using error output)"). */
	errors: INodeExecutionData[];
	/** The error the node stopped with, if it stopped. */
	error?: NodeError;
}

/**
 * Runs one action node of this package on `items` through n8n-core with the given On Error
 * setting (none: stop the workflow), and returns its outputs as n8n routed them.
 */
export async function runWithOnError(
	type: 'performanceService' | 'securityService',
	parameters: INodeParameters,
	options: { items: IDataObject[]; onError?: OnError; credentials: Credentials },
): Promise<OnErrorRun> {
	const credentialType = `${type}Api`;
	const node = packageNode(type, parameters, {
		name: NODE_UNDER_TEST,
		credentials: [credentialType],
	});
	if (options.onError) node.onError = options.onError;
	const run = await runWorkflow(chain(startNode(), itemsNode(options.items), node), {
		credentials: options.credentials,
	});
	const error = run.nodeError(NODE_UNDER_TEST) as NodeError | undefined;
	if (error) return { success: [], errors: [], error };
	return { success: run.output(NODE_UNDER_TEST, 0), errors: run.output(NODE_UNDER_TEST, 1) };
}
