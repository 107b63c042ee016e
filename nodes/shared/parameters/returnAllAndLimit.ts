import { NodeOperationError, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

/** "Return All" and "Limit" of a resource's Get Many operation (`getAll`), as in n8n's own nodes. */
export function getManyProperties(resource: string): INodeProperties[] {
	const show = { resource: [resource], operation: ['getAll'] };
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
			displayOptions: { show },
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { ...show, returnAll: [false] } },
		},
	];
}

/**
 * The Limit (default 50) as a whole number from 1, and up to `max` where the endpoint has one;
 * anything else (e.g. from an expression) is refused.
 */
export function readLimit(ctx: IExecuteFunctions, itemIndex: number, max?: number): number {
	const limit = ctx.getNodeParameter('limit', itemIndex, 50) as number;
	if (Number.isInteger(limit) && limit >= 1 && (max === undefined || limit <= max)) return limit;
	const allowed = max === undefined ? 'of at least 1' : `from 1 to ${max}`;
	throw new NodeOperationError(
		ctx.getNode(),
		`The limit must be a whole number ${allowed}, not ${limit}`,
		{
			itemIndex,
			description: 'Enter a whole number in the Limit field, or check the expression that sets it.',
		},
	);
}

/** Return All, or the validated Limit: what `fetchList` takes besides the plural. */
export function readGetMany(
	ctx: IExecuteFunctions,
	itemIndex: number,
): { returnAll: boolean; limit: number } {
	const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) as boolean;
	return { returnAll, limit: returnAll ? 0 : readLimit(ctx, itemIndex) };
}
