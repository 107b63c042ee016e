import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

/** One operation's logic for one input item: the record(s) it produced. */
export type OperationHandler = (this: IExecuteFunctions, itemIndex: number) => Promise<IDataObject | IDataObject[]>;

export type OperationHandlers = Record<string, Record<string, OperationHandler>>;

function errorJson(error: Error): IDataObject {
	const { description } = error as Error & { description?: unknown };
	const json: IDataObject = { error: error.message };
	if (typeof description === 'string' && description !== '') json.errorDescription = description;
	return json;
}

function asNodeError(ctx: IExecuteFunctions, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

/**
 * Runs the chosen resource/operation once per input item. Every output item is paired with
 * its input; with "Continue On Fail" a failed item carries `json.error` and the rest still run.
 */
export async function runOperations(
	ctx: IExecuteFunctions,
	handlers: OperationHandlers,
): Promise<INodeExecutionData[][]> {
	const items = ctx.getInputData();
	const output: INodeExecutionData[] = [];

	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const pairedItem = { item: itemIndex };
		try {
			const resource = ctx.getNodeParameter('resource', itemIndex) as string;
			const operation = ctx.getNodeParameter('operation', itemIndex) as string;
			const handler = handlers[resource]?.[operation];
			if (!handler) {
				throw new NodeOperationError(ctx.getNode(), `The operation "${operation}" of "${resource}" is not supported`, {
					itemIndex,
				});
			}
			const result = await handler.call(ctx, itemIndex);
			for (const json of Array.isArray(result) ? result : [result]) {
				output.push({ json, pairedItem });
			}
		} catch (error) {
			if (ctx.continueOnFail()) {
				output.push({ json: errorJson(error as Error), pairedItem });
				continue;
			}
			throw asNodeError(ctx, error, itemIndex);
		}
	}
	return [output];
}
