import { NodeOperationError, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { kindOf, readBoolean, wholeNumberOf } from './values';

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
 * text that is a whole number counts as that number. Anything else is refused.
 */
export function readLimit(ctx: IExecuteFunctions, itemIndex: number, max?: number): number {
	const value = ctx.getNodeParameter('limit', itemIndex, 50) as unknown;
	const limit = wholeNumberOf(value);
	if (limit !== undefined && limit >= 1 && (max === undefined || limit <= max)) return limit;
	const allowed = max === undefined ? 'of at least 1' : `from 1 to ${max}`;
	const given =
		typeof value === 'number'
			? String(value)
			: typeof value === 'string'
				? JSON.stringify(value.slice(0, 40))
				: kindOf(value);
	throw new NodeOperationError(
		ctx.getNode(),
		`The limit must be a whole number ${allowed}, not ${given}`,
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
	const returnAll = readBoolean(ctx, 'returnAll', 'Return All', itemIndex, false);
	return { returnAll, limit: returnAll ? 0 : readLimit(ctx, itemIndex) };
}
