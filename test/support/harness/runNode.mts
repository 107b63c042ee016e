import type {
	ExecutionStatus,
	ICredentialDataDecryptedObject,
	IDataObject,
	INodeExecutionData,
	INodeParameters,
} from 'n8n-workflow';

import type { Sandbox } from '../sandbox/index.mts';
import { loadPackageTypes } from './packageTypes.mts';
import { sandboxCredentials } from './sandbox.mts';
import {
	chain,
	itemsNode,
	packageNode,
	packageTypeName,
	runWorkflow,
	startNode,
	type WorkflowRun,
} from './runWorkflow.mts';

/** The name of the node runNode runs. */
export const NODE_UNDER_TEST = 'Node under test';

export interface RunNodeOptions {
	/** Where the node's credential points by default (performance: the read-write token). */
	sandbox?: Sandbox;
	/** Fields of the node's credential: laid over the sandbox's, or the whole credential without a sandbox. */
	credentials?: ICredentialDataDecryptedObject;
	/** Input items; without them the node runs once on an empty item. */
	items?: IDataObject[];
	continueOnFail?: boolean;
	/** The node's version; the one it ships when not given. */
	typeVersion?: number;
}

/** The error a node stopped with, with the fields NodeApiError and NodeOperationError add. */
export type NodeError = Error & {
	description?: string | null;
	httpCode?: string | null;
	context?: IDataObject;
};

export interface NodeRun {
	status: ExecutionStatus;
	/** The node's output items, [] when it stopped with an error. */
	items: INodeExecutionData[];
	json: IDataObject[];
	/** The error the node stopped with (without Continue On Fail). */
	error?: NodeError;
	workflowRun: WorkflowRun;
}

async function credentialTypeOf(type: string): Promise<string> {
	const nodeType = (await loadPackageTypes()).nodes.get(packageTypeName(type));
	const name = nodeType?.description.credentials?.[0]?.name;
	if (!name) throw new Error(`${type} is not a node of this package with a credential`);
	return name;
}

/**
 * Runs one node of this package through n8n's engine (after a start node, and an items node
 * when `items` is given) with its credential, and returns its output or error.
 */
export async function runNode(
	type: string,
	parameters: INodeParameters,
	options: RunNodeOptions = {},
): Promise<NodeRun> {
	const credentialType = await credentialTypeOf(type);
	const credentials = {
		[credentialType]: {
			...(options.sandbox ? sandboxCredentials(options.sandbox)[credentialType] : {}),
			...options.credentials,
		},
	};
	const node = packageNode(type, parameters, {
		name: NODE_UNDER_TEST,
		credentials: [credentialType],
		continueOnFail: options.continueOnFail,
		typeVersion: options.typeVersion,
	});
	const nodes = options.items ? [startNode(), itemsNode(options.items), node] : [startNode(), node];
	const workflowRun = await runWorkflow(chain(...nodes), { credentials });
	const error = workflowRun.nodeError(NODE_UNDER_TEST) as NodeError | undefined;
	const items = error ? [] : workflowRun.output(NODE_UNDER_TEST);
	return {
		status: workflowRun.run.status,
		items,
		json: items.map((item) => item.json),
		error,
		workflowRun,
	};
}

/**
 * The reason code a message names in brackets: `… [not_found]` and `… [internal_error, HTTP 500]`
 * give `not_found` and `internal_error`. Takes an error or a Continue On Fail item's `error` text.
 */
export function reasonOf(error: unknown): string | undefined {
	// Errors from n8n's modules are not `instanceof Error` in the test's realm: read `message`.
	const message =
		typeof error === 'string'
			? error
			: String((error as { message?: unknown } | undefined)?.message ?? '');
	return /\[([A-Za-z0-9_]+)(?:, HTTP \d{3})?\]/.exec(message)?.[1];
}

/** A resource locator value in "By ID" mode. */
export function byId(value: string): INodeParameters {
	return { __rl: true, mode: 'id', value };
}

/** A resource locator value as the editor stores a pick from the list. */
export function fromList(value: string, cachedResultName?: string): INodeParameters {
	return cachedResultName === undefined
		? { __rl: true, mode: 'list', value }
		: { __rl: true, mode: 'list', value, cachedResultName };
}
