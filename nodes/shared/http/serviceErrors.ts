import type { IN8nHttpFullResponse } from 'n8n-workflow';

import { MAX_REDIRECTS, parseUrl, type RefusedUrl } from './baseUrl';
import { bounded, plainReason, readErrorBody } from './errorBody';
import type { RateLimitInfo } from './rateLimitHeaders';
import { describeRateLimit } from './rateLimitMessages';
import type { FailureDescription, ServiceProfile, ServiceRequest } from './serviceTypes';

const CODE_BY_STATUS: Record<number, string> = {
	400: 'bad_request',
	401: 'auth_invalid',
	403: 'forbidden',
	404: 'not_found',
	409: 'conflict',
	422: 'invalid_request',
	429: 'rate_limited',
};

/** The most a message or a description holds, in characters: n8n shows both and stores them. */
export const MAX_MESSAGE_CHARS = 600;
export const MAX_DESCRIPTION_CHARS = 1200;

/** A failure with message and description cut to their bounds. */
function boundedFailure(failure: FailureDescription): FailureDescription {
	return {
		...failure,
		message: bounded(failure.message, MAX_MESSAGE_CHARS),
		description: bounded(failure.description, MAX_DESCRIPTION_CHARS),
	};
}

const NOT_RETRIED =
	'The request was not retried automatically, because the service may already have carried it out.';

/** The path of a URL (the URL itself when it is not one), for messages. */
function pathOf(url: string | undefined): string {
	return parseUrl(url ?? '')?.pathname ?? url ?? '';
}

export function describeFailure(
	profile: ServiceProfile,
	status: number,
	body: string,
	rateLimit: RateLimitInfo,
	request: ServiceRequest,
	/** How often the node waited for a 429's reset and retried. */
	retries?: number,
	now: number = Date.now(),
): FailureDescription {
	const reported = readErrorBody(body);
	const fallbackCode = status >= 500 ? 'internal_error' : `http_${status}`;
	const code = reported.code ?? CODE_BY_STATUS[status] ?? fallbackCode;
	const said = reported.message ? `: ${reported.message}` : '';
	const { serviceName, credentialName } = profile;
	const secret = profile.secretName ?? 'token';
	const fail = (message: string, description: string): FailureDescription =>
		boundedFailure({ httpCode: String(status), message, description });

	if (code === 'auth_required') {
		return fail(
			`The ${serviceName} received no credentials [${code}]`,
			`Open the "${credentialName}" credential and enter the ${secret}, then run again.`,
		);
	}
	if (status === 401 || code === 'auth_invalid') {
		return fail(
			`The ${serviceName} rejected the ${secret} [${code}]${said}`,
			`Check the ${secret} in the "${credentialName}" credential: it may be mistyped, revoked or rotated.`,
		);
	}
	if (status === 403 && profile.secretName !== undefined) {
		// A key without scopes (the Security Service): the key or its tenant may not do this.
		return fail(
			`The ${serviceName} refused this for the ${secret} [${code}, HTTP 403]${said}`,
			`Check that the ${secret} in the "${credentialName}" credential belongs to the tenant that owns the record, and that the tenant's plan allows this.`,
		);
	}
	if (status === 403) {
		const { required_scope: required } = reported.fields;
		const scope = typeof required === 'string' ? required : request.scope;
		return fail(
			`The token lacks permission${scope ? ` (${scope})` : ''} [${code}]${said}`,
			scope
				? `The token needs the scope "${scope}". Create a token with that scope and put it in the "${credentialName}" credential.`
				: `The token is not allowed to do this. Use a token with the needed permissions in the "${credentialName}" credential.`,
		);
	}
	if (status === 404 && request.addressedRecord) {
		return fail(
			`The ${request.addressedRecord} was not found [${code}]`,
			'Check the ID, or pick it from the list; the record may have been deleted.',
		);
	}
	if (status === 404) {
		return fail(
			`Nothing exists at ${pathOf(request.url) || request.path} [${code}]${said}`,
			`Check the base URL in the "${credentialName}" credential, including its version segment (e.g. /v1).`,
		);
	}
	if (status === 409) {
		return fail(
			`The ${serviceName} refused a conflicting change [${code}]${said}`,
			'A record with the same unique value (for example the same hostname) exists already, or the record is not in a state that allows this. Change the input or update the existing record.',
		);
	}
	if (status === 429)
		return boundedFailure(describeRateLimit(profile, code, said, rateLimit, request, retries, now));
	if (status >= 500) {
		return fail(
			`The ${serviceName} failed [${code}, HTTP ${status}]${said}`,
			`This is a fault on the service side; try again later. ${NOT_RETRIED}`,
		);
	}
	return fail(
		`The ${serviceName} refused the request [${code}, HTTP ${status}]${said}`,
		said
			? 'Check the values sent by this node; the message above ends with what the service said.'
			: 'Check the values sent by this node; the service gave no reason.',
	);
}

/** Node.js's codes for a certificate n8n does not trust (TLS handshake failures). */
const CERTIFICATE_CODES: Record<string, string> = {
	DEPTH_ZERO_SELF_SIGNED_CERT: 'is self-signed',
	SELF_SIGNED_CERT_IN_CHAIN: 'is signed by a certificate authority n8n does not know',
	UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'is signed by a certificate authority n8n does not know',
	UNABLE_TO_GET_ISSUER_CERT: 'is signed by a certificate authority n8n does not know',
	UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'is signed by a certificate authority n8n does not know',
	CERT_UNTRUSTED: 'is not trusted',
	CERT_HAS_EXPIRED: 'has expired',
	CERT_NOT_YET_VALID: 'is not valid yet',
	CERT_REVOKED: 'has been revoked',
	ERR_TLS_CERT_ALTNAME_INVALID: 'is for another host name',
	HOSTNAME_MISMATCH: 'is for another host name',
	CERT_SIGNATURE_FAILURE: 'has an invalid signature',
};

/** The Node.js error code of a failed request (ECONNREFUSED, CERT_HAS_EXPIRED, …). */
function errorCode(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
		const { code, cause } = current as { code?: unknown; cause?: unknown };
		if (typeof code === 'string' && (/^E[A-Z_]+$/.test(code) || code in CERTIFICATE_CODES))
			return code;
		current = cause;
	}
	return undefined;
}

/** A certificate n8n does not trust: nothing was sent, and the fix is on n8n's or the server's side. */
function describeCertificate(
	profile: ServiceProfile,
	origin: string,
	code: string,
): FailureDescription {
	return boundedFailure({
		httpCode: code,
		message: `The certificate of ${origin} ${CERTIFICATE_CODES[code]}, so n8n did not connect [${code}]`,
		description: `The request was not sent. If the ${profile.serviceName} uses a self-signed or company certificate, give n8n its certificate authority: put the CA certificate (PEM) on the n8n host, set NODE_EXTRA_CA_CERTS to its path in n8n's environment and restart n8n. If the certificate has expired or names another host, it must be renewed on the server. Check also the base URL in the "${profile.credentialName}" credential (${origin}).`,
	});
}

export function describeUnreachable(
	profile: ServiceProfile,
	url: string,
	error: unknown,
): FailureDescription {
	const code = errorCode(error) ?? 'ECONNRESET';
	// Not a URL: the raw value, as the credential holds it.
	const origin = parseUrl(url)?.origin ?? url;
	if (code in CERTIFICATE_CODES) return describeCertificate(profile, origin, code);
	const checkUrl = `Check the base URL in the "${profile.credentialName}" credential (${origin}) and that n8n can reach the service.`;
	const reasons: Record<string, string> = {
		ENOTFOUND: `The host of ${origin} could not be found`,
		EAI_AGAIN: `The host of ${origin} could not be resolved`,
		ECONNREFUSED: `${origin} refused the connection`,
		ETIMEDOUT: `${origin} did not answer in time`,
		ECONNABORTED: `${origin} did not answer in time`,
		ECONNRESET: `The connection to ${origin} was dropped before the ${profile.serviceName} answered`,
	};
	const neverArrived = ['ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED'].includes(code);
	return boundedFailure({
		httpCode: code,
		message: `${reasons[code] ?? `Could not reach ${origin}`} [${code}]`,
		description: neverArrived ? checkUrl : `${checkUrl} ${NOT_RETRIED}`,
	});
}

export function describeUnreadable(
	profile: ServiceProfile,
	response: IN8nHttpFullResponse,
	request: ServiceRequest,
): FailureDescription {
	const contentType = plainReason(String(response.headers['content-type'] ?? ''), 80);
	return boundedFailure({
		httpCode: String(response.statusCode),
		message: `The ${profile.serviceName} answered ${request.method} ${pathOf(request.url) || request.path} with a body that is not valid JSON (${contentType ?? 'no content type'}) [not_json, HTTP ${response.statusCode}]`,
		description: `Check that the base URL in the "${profile.credentialName}" credential points at the API (not a web page or proxy), then try again.`,
	});
}

/** A followed URL the origin rule refused (see `checkFollowedUrl`): nothing was sent. */
export function describeRefusedUrl(
	profile: ServiceProfile,
	refused: RefusedUrl,
	baseUrl: string,
): FailureDescription {
	const secret = profile.secretName ?? 'token';
	return {
		httpCode: 'foreign_url',
		message: `Refused to send the ${secret} to ${refused.shownUrl}: it is outside the base URL of the "${profile.credentialName}" credential [foreign_url]`,
		description: `A page link or page token pointed at ${refused.shownUrl}, and ${refused.reason}; the request was not sent. The ${secret} of the "${profile.credentialName}" credential only goes to addresses below ${baseUrl || 'its base URL'}. If the service has moved, change the base URL in the credential.`,
	};
}

/** A redirect the node does not follow (see `checkRedirect`): nothing was sent where it points. */
export function describeRefusedRedirect(
	profile: ServiceProfile,
	request: ServiceRequest,
	status: number,
	refused: RefusedUrl,
	baseUrl: string,
): FailureDescription {
	const secret = profile.secretName ?? 'token';
	const to = refused.shownUrl === '' ? '' : ` to ${refused.shownUrl}`;
	return boundedFailure({
		httpCode: String(status),
		message: `The ${profile.serviceName} answered ${request.method} with a redirect${to} that the node does not follow [redirect, HTTP ${status}]`,
		description: `The node follows a redirect only for a read (GET), to an address below the base URL of the "${profile.credentialName}" credential (${baseUrl || 'not set'}), at most ${MAX_REDIRECTS} in a row; here ${refused.reason}. Nothing was sent there: the ${secret} went nowhere else. If the service is at another address (for example https:// instead of http://), set the base URL of the credential to it.`,
	});
}
