import type { IDataObject } from 'n8n-workflow';

export interface ServiceErrorDetails {
	code?: string;
	message?: string;
	/** Other fields of the error object, e.g. `required_scope`. */
	fields: IDataObject;
}

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asText(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/**
 * Reads code and message from the error shapes services commonly use:
 * `{error:{code,message}}`, `{code,message}`, `{error:"..."}`, `{message}`, `{errors:[...]}` and plain text.
 */
export function readErrorBody(body: unknown): ServiceErrorDetails {
	let parsed: unknown = body;
	if (typeof body === 'string') {
		try {
			parsed = JSON.parse(body);
		} catch {
			const text = body.trim().slice(0, 300);
			return { message: text === '' ? undefined : text, fields: {} };
		}
	}
	if (!isObject(parsed)) return { message: asText(parsed), fields: {} };

	const nested = isObject(parsed.error)
		? parsed.error
		: Array.isArray(parsed.errors) && isObject(parsed.errors[0])
			? parsed.errors[0]
			: undefined;
	const source = nested ?? parsed;
	return {
		code: asText(source.code) ?? asText(source.error_code) ?? asText(source.type),
		message:
			asText(source.message) ??
			asText(source.error_description) ??
			asText(source.detail) ??
			asText(parsed.error) ??
			asText(parsed.message),
		fields: source,
	};
}
