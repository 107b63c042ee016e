import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { DEFAULT_PARALLEL_REQUESTS, parallelRequestsOf, runItemsInParallel } from './parallelItems';

/** One operation's logic for one input item: the record(s) it produced. */
export type OperationHandler = (
	this: IExecuteFunctions,
	itemIndex: number,
) => Promise<IDataObject | IDataObject[]>;

export type OperationHandlers = Record<string, Record<string, OperationHandler>>;

function asNodeError(
	ctx: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

/**
 * A failed item: `error` (the message) and `message` (what to do), the only keys both n8n 1.x and
 * 2.x read as a failure to send down the error output under "Continue (using error output)".
 * (n8n's own `item.error` would route it too, but n8n 2.x then replaces the json with the message
 * alone.)
 */
function errorJson(error: NodeApiError | NodeOperationError): IDataObject {
	const { description } = error;
	const json: IDataObject = { error: error.message };
	if (typeof description === 'string' && description !== '') json.message = description;
	return json;
}

/**
 * Runs the chosen resource/operation once per input item, several items at once (the node's
 * "Parallel Requests" option). Output follows the input order and every output item is paired
 * with its input. With "Continue On Fail" a failed item carries `json.error` and `json.message`
 * (see errorJson) and the rest still run; without it no further item starts and the node fails
 * with the first failed item's error.
 */
export async function runOperations(
	ctx: IExecuteFunctions,
	handlers: OperationHandlers,
): Promise<INodeExecutionData[][]> {
	const items = ctx.getInputData();
	if (items.length === 0) return [[]];
	const continueOnFail = ctx.continueOnFail();
	const parallel = parallelRequestsOf(
		ctx.getNodeParameter('options.parallelRequests', 0, DEFAULT_PARALLEL_REQUESTS),
	);

	const runItem = async (itemIndex: number): Promise<IDataObject[]> => {
		const resource = ctx.getNodeParameter('resource', itemIndex) as string;
		const operation = ctx.getNodeParameter('operation', itemIndex) as string;
		const handler = handlers[resource]?.[operation];
		if (!handler) {
			throw new NodeOperationError(
				ctx.getNode(),
				`The operation "${operation}" of "${resource}" is not supported`,
				{
					itemIndex,
				},
			);
		}
		const result = await handler.call(ctx, itemIndex);
		return Array.isArray(result) ? result : [result];
	};
	const outcomes = await runItemsInParallel(items.length, parallel, runItem, !continueOnFail);

	const output: INodeExecutionData[] = [];
	outcomes.forEach((outcome, itemIndex) => {
		if (!outcome) return;
		const pairedItem = { item: itemIndex };
		if (outcome.ok) {
			for (const json of outcome.value) output.push({ json, pairedItem });
		} else {
			const error = asNodeError(ctx, outcome.error, itemIndex);
			if (!continueOnFail) throw error;
			output.push({ json: errorJson(error), pairedItem });
		}
	});
	return [output];
}
