import type { SecurityErrorShape } from './types.mts';

export interface Reply {
	status: number;
	headers: Record<string, string>;
	body: string;
}

export interface IncomingCall {
	method: string;
	/** Path below the service base (or below /_control), without the query string. */
	path: string;
	query: URLSearchParams;
	headers: Record<string, string>;
	body: string;
}

/** A service's error answer, in the performance format or the security one. */
export type ErrorReply = (status: number, code: string, message: string) => Reply;

export function jsonReply(
	status: number,
	value: unknown,
	headers: Record<string, string> = {},
): Reply {
	return {
		status,
		headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
		body: JSON.stringify(value),
	};
}

export function textReply(
	status: number,
	text: string,
	contentType = 'text/plain; charset=utf-8',
): Reply {
	return { status, headers: { 'content-type': contentType }, body: text };
}

export function withHeaders(reply: Reply, headers: Record<string, string>): Reply {
	return { ...reply, headers: { ...reply.headers, ...headers } };
}

/** Parses a JSON object body; an empty body counts as `{}`. Returns undefined when it is not an object. */
export function parseObjectBody(body: string): Record<string, unknown> | undefined {
	if (body.trim() === '') return {};
	try {
		const value: unknown = JSON.parse(body);
		return typeof value === 'object' && value !== null && !Array.isArray(value)
			? (value as Record<string, unknown>)
			: undefined;
	} catch {
		return undefined;
	}
}

export function performanceError(
	status: number,
	code: string,
	message: string,
	extra: Record<string, unknown> = {},
): Reply {
	return jsonReply(status, { error: { code, message, ...extra } });
}

export function securityError(
	shape: SecurityErrorShape,
	status: number,
	code: string,
	message: string,
): Reply {
	switch (shape) {
		case 'nested':
			return jsonReply(status, { error: { code, message } });
		case 'flat':
			return jsonReply(status, { code, message });
		case 'string':
			return jsonReply(status, { error: message });
		case 'message':
			return jsonReply(status, { message });
		case 'text':
			return textReply(status, message);
	}
}
