/**
 * The subset of JSON Schema that n8n's output schemas (`__schema__`) use: `type` (a name or a
 * list), `properties`, `required`, `items`, `enum`. Returns one message per violation.
 */
export interface JsonSchema {
	type?: string | string[];
	properties?: Record<string, JsonSchema>;
	required?: string[];
	items?: JsonSchema;
	enum?: unknown[];
}

function typeOf(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'array';
	return typeof value;
}

function matchesType(value: unknown, type: string): boolean {
	if (type === 'integer') return Number.isInteger(value);
	return typeOf(value) === type;
}

export function validateJson(schema: JsonSchema, value: unknown, path = '$'): string[] {
	const errors: string[] = [];
	if (schema.type !== undefined) {
		const types = Array.isArray(schema.type) ? schema.type : [schema.type];
		if (!types.some((type) => matchesType(value, type))) {
			return [`${path}: expected ${types.join(' or ')}, got ${typeOf(value)}`];
		}
	}
	if (schema.enum && !schema.enum.includes(value)) {
		errors.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
	}
	if (typeOf(value) === 'object') {
		const record = value as Record<string, unknown>;
		for (const name of schema.required ?? []) {
			if (!(name in record)) errors.push(`${path}.${name}: missing`);
		}
		for (const [name, propertySchema] of Object.entries(schema.properties ?? {})) {
			if (name in record)
				errors.push(...validateJson(propertySchema, record[name], `${path}.${name}`));
		}
	}
	if (Array.isArray(value) && schema.items) {
		value.forEach((element, index) =>
			errors.push(...validateJson(schema.items as JsonSchema, element, `${path}[${index}]`)),
		);
	}
	return errors;
}
