import type { INodeProperties } from 'n8n-workflow';

import type { OperationHandler, OperationHandlers, WriteOperations } from '../actions/router';

/** An `<op>.operation.ts` module: the operation's option in the Operation parameter, its fields and its logic. */
export interface OperationModule {
	/** The option's value is the name the resource gives the module. */
	option: { name: string; action: string; description: string };
	description: INodeProperties[];
	execute: OperationHandler;
	/** A write (it creates or changes something): its items go one at a time by default. */
	writes?: boolean;
}

/** A resource's Operation parameter and its operations' fields, and its handler map. */
export interface ResourceOperations {
	properties: INodeProperties[];
	handlers: Record<string, OperationHandler>;
	/** The operations that write. */
	writes: string[];
}

/**
 * A resource of an action node from the module of each of its operations, under the operation's
 * value: its Operation parameter (the modules' options, by name) followed by the fields of its
 * operations (`properties`), and its handler map. The default must be one of the operations.
 */
export function resourceOperations<const Modules extends Record<string, OperationModule>>(
	resource: string,
	modules: Modules,
	defaultOperation: keyof Modules & string,
): ResourceOperations {
	const operations: Array<[string, OperationModule]> = Object.entries(modules);
	const options = operations.map(([value, { option }]) => ({ ...option, value }));
	const operationProperty: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options: options.sort((a, b) => a.name.localeCompare(b.name)),
		default: defaultOperation,
	};
	return {
		properties: [operationProperty, ...operations.flatMap(([, module]) => module.description)],
		handlers: Object.fromEntries(operations.map(([value, module]) => [value, module.execute])),
		writes: operations.filter(([, module]) => module.writes === true).map(([value]) => value),
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
): { properties: INodeProperties[]; handlers: OperationHandlers; writes: WriteOperations } {
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
		writes: Object.fromEntries(
			resources.map((resource) => [resource.value, resource.operations.writes]),
		),
	};
}
