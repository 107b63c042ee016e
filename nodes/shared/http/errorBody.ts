import type { IDataObject } from 'n8n-workflow';

import { isRecord, nonBlankString } from '../lists/recordFields';

interface ServiceErrorDetails {
	code?: string;
	message?: string;
	/** Other fields of the error object, e.g. `required_scope`. */
	fields: IDataObject;
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
			return { message: nonBlankString(body)?.slice(0, 300), fields: {} };
		}
	}
	if (!isRecord(parsed)) return { message: nonBlankString(parsed), fields: {} };

	// The error object: under `error`, else the first of `errors`, else the body itself.
	const firstError: unknown = Array.isArray(parsed.errors) ? parsed.errors[0] : undefined;
	const source = [parsed.error, firstError].find(isRecord) ?? parsed;
	return {
		code:
			nonBlankString(source.code) ??
			nonBlankString(source.error_code) ??
			nonBlankString(source.type),
		message:
			nonBlankString(source.message) ??
			nonBlankString(source.error_description) ??
			nonBlankString(source.detail) ??
			nonBlankString(parsed.error) ??
			nonBlankString(parsed.message),
		fields: source,
	};
}
