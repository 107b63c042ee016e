import type { IExecuteFunctions, INodeProperties, INodePropertyModeValidation } from 'n8n-workflow';

import { requireId, toPathSegment } from './ids';

export interface ResourceLocatorOptions {
	displayName: string;
	name: string;
	description: string;
	resource: string;
	operation: string;
	searchListMethod: string;
	listPlaceholder: string;
	idPlaceholder: string;
	idValidation?: INodePropertyModeValidation[];
}

/** A required resource locator with two modes: "From List" (searchable) and "By ID". */
export function resourceLocatorProperty(options: ResourceLocatorOptions): INodeProperties {
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		displayOptions: { show: { resource: [options.resource], operation: [options.operation] } },
		description: options.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: options.listPlaceholder,
				typeOptions: { searchListMethod: options.searchListMethod, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: options.idPlaceholder,
				...(options.idValidation ? { validation: options.idValidation } : {}),
			},
		],
	};
}

export interface PathId {
	/** The ID as the user gave it (trimmed), for messages and output. */
	id: string;
	/** The ID encoded for the request path. */
	segment: string;
}

/** Reads a resource locator's ID (trimmed); refuses an empty one before any request. */
export function readLocatorId(
	ctx: IExecuteFunctions,
	parameter: string,
	label: string,
	itemIndex: number,
): string {
	const value = ctx.getNodeParameter(parameter, itemIndex, '', { extractValue: true });
	return requireId(ctx.getNode(), value, label, itemIndex);
}

/** Reads a resource locator's ID for a request path; refuses an empty or path-changing ID before any request. */
export function readLocatorPathId(
	ctx: IExecuteFunctions,
	parameter: string,
	label: string,
	itemIndex: number,
): PathId {
	const id = readLocatorId(ctx, parameter, label, itemIndex);
	return { id, segment: toPathSegment(ctx.getNode(), id, label, itemIndex) };
}
