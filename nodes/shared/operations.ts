import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/** One operation's logic for one input item: the record(s) it produced. */
export type OperationHandler = (this: IExecuteFunctions, itemIndex: number) => Promise<IDataObject | IDataObject[]>;

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
export type HandlersFor<Options extends readonly OperationOption[]> = Record<Options[number]['value'], OperationHandler>;

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
