import { NodeOperationError, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

/** The whole numbers a Limit accepts; `max` only where the endpoint has one. */
export interface LimitRange {
	min: number;
	max?: number;
	default: number;
}

/** The Limit of a Get Many with Return All: any page size, cut client-side. */
export const GET_MANY_LIMIT: LimitRange = { min: 1, default: 50 };

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

/** The Limit as a whole number within `range`; anything else (e.g. from an expression) is refused. */
export function readLimit(ctx: IExecuteFunctions, itemIndex: number, range: LimitRange): number {
	const limit = ctx.getNodeParameter('limit', itemIndex, range.default) as number;
	const inRange =
		Number.isInteger(limit) &&
		limit >= range.min &&
		(range.max === undefined || limit <= range.max);
	if (!inRange) {
		const allowed =
			range.max === undefined ? `of at least ${range.min}` : `from ${range.min} to ${range.max}`;
		throw new NodeOperationError(
			ctx.getNode(),
			`The limit must be a whole number ${allowed}, not ${limit}`,
			{
				itemIndex,
				description:
					'Enter a whole number in the Limit field, or check the expression that sets it.',
			},
		);
	}
	return limit;
}

/** Return All, or the validated Limit: what `performanceList` / `securityList` take besides the plural. */
export function readGetMany(
	ctx: IExecuteFunctions,
	itemIndex: number,
): { returnAll: boolean; limit: number } {
	const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) as boolean;
	return { returnAll, limit: returnAll ? 0 : readLimit(ctx, itemIndex, GET_MANY_LIMIT) };
}
