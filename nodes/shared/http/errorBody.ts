import type { IDataObject } from 'n8n-workflow';

import { isRecord, nonBlankString } from '../lists/recordFields';

/** The most of a service's reason a message quotes, in characters. */
export const MAX_REASON_CHARS = 300;

interface ServiceErrorDetails {
	code?: string;
	message?: string;
	/** Other fields of the error object, e.g. `required_scope`. */
	fields: IDataObject;
}

/** Markup and entities out, whitespace collapsed, `Bearer <token>` hidden, cut to the bound. */
export function plainReason(text: string, max = MAX_REASON_CHARS): string | undefined {
	const plain = text
		.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
		.replace(/<[^>]*>?/g, ' ')
		.replace(/&(nbsp|amp|lt|gt|quot|#39);/g, ' ')
		.replace(/(bearer|basic)\s+(?=[^\s"',;]*[0-9_.-])[^\s"',;]{8,}/gi, '$1 ***')
		.replace(/\s+/g, ' ')
		.trim();
	return plain === '' ? undefined : bounded(plain, max);
}

/** `text` cut to `max` characters, the cut marked with an ellipsis. */
export function bounded(text: string, max: number): string {
	return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** An HTML page's reason: its title, else its first heading, else its text. */
function htmlReason(html: string): string | undefined {
	const part = (tag: string) =>
		new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}>`, 'i').exec(html)?.[1];
	return plainReason(part('title') ?? part('h1') ?? html);
}

/** A code as the service names it, when it is one (a word, not a sentence or a page). */
function codeOf(value: unknown): string | undefined {
	const code = nonBlankString(value);
	return code !== undefined && /^[A-Za-z0-9_.-]{1,64}$/.test(code) ? code : undefined;
}

function reasonOf(value: unknown): string | undefined {
	const text = nonBlankString(value);
	return text === undefined ? undefined : plainReason(text);
}

/** `{errors: ["a", "b"]}` or `{errors: [{message}, …]}`: the messages, joined. */
function listedReasons(errors: unknown[]): string | undefined {
	const texts = errors
		.map((entry) => (isRecord(entry) ? (entry.message ?? entry.detail) : entry))
		.filter((entry): entry is string => typeof entry === 'string' && entry.trim() !== '');
	return texts.length > 0 ? plainReason(texts.join('; ')) : undefined;
}

/**
 * Reads code and message from the error shapes services commonly use:
 * `{error:{code,message}}`, `{code,message}`, `{error:"..."}`, `{message}`, `{errors:[...]}`,
 * plain text and HTML pages (their title). The message is plain text of at most
 * MAX_REASON_CHARS characters.
 */
export function readErrorBody(body: unknown): ServiceErrorDetails {
	let parsed: unknown = body;
	if (typeof body === 'string') {
		try {
			parsed = JSON.parse(body);
		} catch {
			return { message: /<[a-z!]/i.test(body) ? htmlReason(body) : reasonOf(body), fields: {} };
		}
	}
	if (!isRecord(parsed)) {
		const message = Array.isArray(parsed) ? listedReasons(parsed) : reasonOf(parsed);
		return { message, fields: {} };
	}

	// The error object: under `error`, else the first of `errors`, else the body itself.
	const errors = Array.isArray(parsed.errors) ? parsed.errors : undefined;
	const source = [parsed.error, errors?.[0]].find(isRecord) ?? parsed;
	return {
		code: codeOf(source.code) ?? codeOf(source.error_code) ?? codeOf(source.type),
		message:
			reasonOf(source.message) ??
			reasonOf(source.error_description) ??
			reasonOf(source.detail) ??
			reasonOf(parsed.error) ??
			reasonOf(parsed.message) ??
			(errors ? listedReasons(errors) : undefined),
		fields: source,
	};
}
