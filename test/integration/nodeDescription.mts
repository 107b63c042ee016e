import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type {
	INodeParameters,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { expect } from 'vitest';

import { loadPackageTypes } from '../support/harness/packageTypes.mts';
import { PACKAGE_NAME } from '../support/n8n/paths.mts';

/** A node of this package as n8n loads it, by its name without the package prefix. */
export async function nodeType(name: string): Promise<INodeType> {
	const type = (await loadPackageTypes()).nodes.get(`${PACKAGE_NAME}.${name}`);
	if (!type) throw new Error(`${name} is not registered in package.json`);
	return type;
}

/** The values of an options parameter. */
export function optionValues(prop: INodeProperties | undefined): unknown[] {
	return (prop?.options ?? []).map((option) => (option as { value: unknown }).value);
}

/** Asserts the light and dark icons of a node description exist next to the node. */
export function expectIconFiles(nodeDir: string, description: INodeTypeDescription): void {
	const icon = description.icon as { light: string; dark: string };
	for (const file of [icon.light, icon.dark])
		expect(existsSync(path.join(nodeDir, file.replace(/^file:/, '')))).toBe(true);
}

/** The codex file (`<Node>.node.json`) next to a node. */
export function readCodex<T = { node: string }>(nodeDir: string, file: string): T {
	return JSON.parse(readFileSync(path.join(nodeDir, file), 'utf8')) as T;
}

/** One operation a node offers, as its resource's "Operation" parameter lists it. */
export interface OfferedOperation {
	resource: string;
	operation: string;
	action?: string;
	description?: string;
}

/** Every operation of every resource, read from the node's `operation` parameters. */
export function operationsOf(type: INodeType): OfferedOperation[] {
	return type.description.properties
		.filter((property) => property.name === 'operation')
		.flatMap((property) =>
			(property.displayOptions?.show?.resource ?? []).flatMap((resource) =>
				(property.options as Array<{ value: string; action?: string; description?: string }>).map(
					({ value, action, description }) => ({
						resource: String(resource),
						operation: value,
						action,
						description,
					}),
				),
			),
		);
}

/**
 * The parameters of one operation taken from `samples` (values by parameter name): those shown
 * for the operation. Asserts there is a sample for each required one.
 */
export function sampleParametersOf(
	type: INodeType,
	{ resource, operation }: OfferedOperation,
	samples: INodeParameters,
): INodeParameters {
	const shown = type.description.properties.filter((property) => {
		const show = property.displayOptions?.show;
		return (
			property.name !== 'operation' &&
			show?.resource?.includes(resource) === true &&
			(show.operation === undefined || show.operation.includes(operation))
		);
	});
	for (const { name, required } of shown) {
		if (required) expect(samples, `a sample value for ${name}`).toHaveProperty(name);
	}
	return Object.fromEntries(
		shown.filter(({ name }) => name in samples).map(({ name }) => [name, samples[name]]),
	);
}
