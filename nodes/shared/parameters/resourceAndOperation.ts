import type { INodeProperties } from 'n8n-workflow';

import type { OperationHandler, OperationHandlers } from '../actions/router';

/** One option of a resource's "Operation" parameter. */
interface OperationOption {
	name: string;
	value: string;
	action: string;
	description: string;
}

/** A resource's Operation parameter and its operations' fields, and its handler map. */
export interface ResourceOperations {
	properties: INodeProperties[];
	handlers: Record<string, OperationHandler>;
}

/** An `<op>.operation.ts` module: the operation's fields and its logic. */
interface OperationModule {
	description: INodeProperties[];
	execute: OperationHandler;
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

/**
 * A resource of an action node: its Operation parameter followed by the fields of its
 * operations (`properties`), and its handler map. `modules` holds the module of every operation
 * of the option list and nothing else: a missing or unknown one does not compile.
 */
export function resourceOperations<const Options extends readonly OperationOption[]>(
	resource: string,
	options: Options,
	defaultOperation: Options[number]['value'],
	modules: Record<Options[number]['value'], OperationModule>,
): ResourceOperations {
	const operations: Array<[string, OperationModule]> = Object.entries(modules);
	return {
		properties: [
			operationProperty(resource, options, defaultOperation),
			...operations.flatMap(([, module]) => module.description),
		],
		handlers: Object.fromEntries(operations.map(([value, module]) => [value, module.execute])),
	};
}

/** One resource of an action node: its option in the Resource parameter and its operations. */
interface NodeResource {
	name: string;
	value: string;
	operations: ResourceOperations;
}

/**
 * An action node's Resource parameter followed by the properties of every resource, and the
 * handler maps by resource; the default must be one of the resources.
 */
export function nodeResources<const Resources extends readonly NodeResource[]>(
	resources: Resources,
	defaultResource: Resources[number]['value'],
): { properties: INodeProperties[]; handlers: OperationHandlers } {
	const resourceProperty: INodeProperties = {
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: resources.map(({ name, value }) => ({ name, value })),
		default: defaultResource,
	};
	return {
		properties: [
			resourceProperty,
			...resources.flatMap((resource) => resource.operations.properties),
		],
		handlers: Object.fromEntries(
			resources.map((resource) => [resource.value, resource.operations.handlers]),
		),
	};
}
