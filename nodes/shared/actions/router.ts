import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { parallelRequestsOf, runItemsInParallel } from './parallelItems';

/** One operation's logic for one input item: the record(s) it produced. */
export type OperationHandler = (
	this: IExecuteFunctions,
	itemIndex: number,
) => Promise<IDataObject | IDataObject[]>;

export type OperationHandlers = Record<string, Record<string, OperationHandler>>;

/** The operations of each resource that write (create or change something at the service). */
export type WriteOperations = Record<string, string[]>;

/** "0 to 2, 5": item indexes as ranges, for messages. */
function itemRanges(indexes: number[]): string {
	const ranges: string[] = [];
	for (let start = 0; start < indexes.length; ) {
		let end = start;
		while (end + 1 < indexes.length && indexes[end + 1] === indexes[end] + 1) end++;
		ranges.push(start === end ? `${indexes[start]}` : `${indexes[start]} to ${indexes[end]}`);
		start = end + 1;
	}
	return ranges.join(', ');
}

/** "Item 0 was done before item 1 failed; items 2 to 3 were not sent." */
function writesNote(outcomes: Array<{ ok: boolean } | undefined>, failedIndex: number): string {
	const done: number[] = [];
	const notSent: number[] = [];
	outcomes.forEach((outcome, index) => {
		if (outcome?.ok) done.push(index);
		else if (!outcome) notSent.push(index);
	});
	const doneText =
		done.length === 0
			? 'No item was done'
			: `${done.length === 1 ? 'Item' : 'Items'} ${itemRanges(done)} ${done.length === 1 ? 'was' : 'were'} done`;
	const notSentText =
		notSent.length === 0
			? ''
			: `; ${notSent.length === 1 ? 'item' : 'items'} ${itemRanges(notSent)} ${notSent.length === 1 ? 'was' : 'were'} not sent`;
	return `${doneText} before item ${failedIndex} failed${notSentText}. Run again only the items not done, or set On Error to Continue to get each item's result.`;
}

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
 * "Parallel Requests" option); a write goes one item at a time unless that option is set, so that
 * a failure stops before the next write, and its error says which items were done. Output follows the input order and every output item is paired
 * with its input. With "Continue On Fail" a failed item carries `json.error` and `json.message`
 * (see errorJson) and the rest still run; without it no further item starts and the node fails
 * with the first failed item's error.
 */
export async function runOperations(
	ctx: IExecuteFunctions,
	handlers: OperationHandlers,
	writes: WriteOperations = {},
): Promise<INodeExecutionData[][]> {
	const items = ctx.getInputData();
	if (items.length === 0) return [[]];
	const continueOnFail = ctx.continueOnFail();
	// Resource and operation take no expressions: the first item's are every item's.
	const isWrite =
		writes[ctx.getNodeParameter('resource', 0) as string]?.includes(
			ctx.getNodeParameter('operation', 0) as string,
		) === true;
	const { parallelRequests } = ctx.getNodeParameter('options', 0, {}) as IDataObject;
	const parallel =
		isWrite && parallelRequests === undefined ? 1 : parallelRequestsOf(parallelRequests);

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
			if (!continueOnFail && isWrite && items.length > 1) {
				const note = writesNote(outcomes, itemIndex);
				error.description = error.description ? `${error.description} ${note}` : note;
			}
			if (!continueOnFail) throw error;
			output.push({ json: errorJson(error), pairedItem });
		}
	});
	return [output];
}
