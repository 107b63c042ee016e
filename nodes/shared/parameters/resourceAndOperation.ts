import type { INodeProperties } from 'n8n-workflow';

import type { OperationHandler } from '../actions/router';

export type { OperationHandler };

/** One option of a resource's "Operation" parameter. */
export interface OperationOption {
	name: string;
	value: string;
	action: string;
	description: string;
}

/**
 * A handler for every operation of an option list and for nothing else: an operation added to
 * the list without a handler, or a handler without an operation, does not compile.
 */
export type HandlersFor<Options extends readonly OperationOption[]> = Record<
	Options[number]['value'],
	OperationHandler
>;

/** One option of a node's "Resource" parameter. */
export interface ResourceOption {
	name: string;
	value: string;
}

/** The handler maps of every resource of an option list and of nothing else (see `HandlersFor`). */
export type ResourceHandlersFor<Resources extends readonly ResourceOption[]> = Record<
	Resources[number]['value'],
	Record<string, OperationHandler>
>;

/** A node's "Resource" parameter; the default must be one of its resources. */
export function resourceProperty<const Resources extends readonly ResourceOption[]>(
	resources: Resources,
	defaultResource: Resources[number]['value'],
): INodeProperties {
	return {
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [...resources],
		default: defaultResource,
	};
}

/** A resource's "Operation" parameter; the default must be one of its operations. */
export function operationProperty<const Options extends readonly OperationOption[]>(
	resource: string,
	options: Options,
	defaultOperation: Options[number]['value'],
): INodeProperties {
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options: [...options],
		default: defaultOperation,
	};
}
