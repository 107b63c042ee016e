import { loadOutputSchema } from 'n8n-core';
import type { IDataObject } from 'n8n-workflow';
import { expect } from 'vitest';

import { validateJson, type JsonSchema } from '../support/harness/jsonSchema.mts';

/** The output schema n8n finds for an operation, asserted to exist and to name some fields. */
export function outputSchema(
	nodeDir: string,
	resource: string,
	operation: string,
	version = 1,
): JsonSchema {
	const schema = loadOutputSchema({ nodeDir, version, resource, operation }) as
		| JsonSchema
		| undefined;
	expect(schema).toBeDefined();
	expect(Object.keys(schema?.properties ?? {}).length).toBeGreaterThan(0);
	return schema as JsonSchema;
}

/** Asserts a node gave output and that every item matches the schema, without fields it lacks. */
export function expectOutputMatches(schema: JsonSchema, output: IDataObject[]): void {
	expect(output.length).toBeGreaterThan(0);
	for (const json of output) {
		expect(validateJson(schema, json)).toEqual([]);
		expect(Object.keys(json).filter((key) => !(key in (schema.properties ?? {})))).toEqual([]);
	}
}
