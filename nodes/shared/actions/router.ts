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

function errorJson(error: Error): IDataObject {
	const { description } = error as Error & { description?: unknown };
	const json: IDataObject = { error: error.message };
	if (typeof description === 'string' && description !== '') json.errorDescription = description;
	return json;
}

/**
 * Runs the chosen resource/operation once per input item, several items at once (the node's
 * "Parallel Requests" option). Output follows the input order and every output item is paired
 * with its input. With "Continue On Fail" a failed item carries `json.error` and the rest still
 * run; without it no further item starts and the node fails with the first failed item's error.
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
		} else if (continueOnFail) {
			output.push({ json: errorJson(outcome.error as Error), pairedItem });
		} else {
			const { error } = outcome;
			if (error instanceof NodeApiError || error instanceof NodeOperationError) throw error;
			throw new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
		}
	});
	return [output];
}
