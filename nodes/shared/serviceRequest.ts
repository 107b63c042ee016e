import {
	NodeApiError,
	sleep,
	type INode,
	type IDataObject,
	type IExecuteFunctions,
	type IHookFunctions,
	type IHttpRequestMethods,
	type IHttpRequestOptions,
	type ILoadOptionsFunctions,
	type IN8nHttpFullResponse,
	type IPollFunctions,
	type JsonObject,
} from 'n8n-workflow';

import { describeFailure, describeUnreachable, describeUnreadable, type FailureDescription } from './serviceErrors';
import { readRateLimit, waitForResetMs, type RateLimitInfo } from './rateLimit';

export type ServiceContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions | IHookFunctions;

export interface ServiceProfile {
	/** Shown in messages, e.g. "Performance Service". */
	serviceName: string;
	credentialType: string;
	/** Display name of the credential, for fix hints. */
	credentialName: string;
	/** What the credential's secret is called in messages; "token" when not set. */
	secretName?: string;
}

export interface ServiceRequest {
	method: IHttpRequestMethods;
	/** Path below the credential's base URL, IDs already encoded. Ignored when `url` is set. */
	path: string;
	/** Absolute URL, e.g. a pagination link the service returned. */
	url?: string;
	qs?: IDataObject;
	body?: IDataObject;
	itemIndex?: number;
	/** Scope the request needs, named in the message when the token lacks it. */
	scope?: string;
	/** What a 404 refers to, e.g. `site "site_1"`. */
	subject?: string;
	/** The limits this request counts against, named when one is exceeded. */
	limits?: string;
}

export interface ServiceResponse {
	/** The URL the request went to, without its query string. */
	url: string;
	body: unknown;
	headers: IDataObject;
	statusCode: number;
	rateLimit: RateLimitInfo;
}

/** A 429 whose reset is at most this far away is waited for; a later one fails at once. */
export const NEAR_RESET_MS = 65_000;
export const MAX_RATE_LIMIT_RETRIES = 3;
const REQUEST_TIMEOUT_MS = 60_000;
const RESET_MARGIN_MS = 250;

/**
 * A NodeApiError that keeps this package's message: NodeApiError swaps any message that
 * mentions a Node.js error code (ECONNREFUSED, …) for a generic one without the fix.
 */
export function serviceError(
	node: INode,
	errorResponse: JsonObject,
	failure: FailureDescription,
	itemIndex: number | undefined,
): NodeApiError {
	const error = new NodeApiError(node, errorResponse, { ...failure, itemIndex });
	error.message = failure.message;
	error.description = failure.description;
	return error;
}

/** Sleeps in short steps so that a cancelled execution stops waiting. */
async function waitUnlessCancelled(ctx: ServiceContext, ms: number): Promise<void> {
	const signal = 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined;
	const until = Date.now() + ms;
	while (!signal?.aborted && Date.now() < until) {
		await sleep(Math.min(until - Date.now(), 1000));
	}
}

export function joinUrl(baseUrl: unknown, path: string): string {
	const base = typeof baseUrl === 'string' ? baseUrl.trim().replace(/\/+$/, '') : '';
	return `${base}/${path.replace(/^\/+/, '')}`;
}

async function send(
	ctx: ServiceContext,
	profile: ServiceProfile,
	options: IHttpRequestOptions,
	request: ServiceRequest,
): Promise<IN8nHttpFullResponse> {
	try {
		return (await ctx.helpers.httpRequestWithAuthentication.call(
			ctx,
			profile.credentialType,
			options,
		)) as IN8nHttpFullResponse;
	} catch (error) {
		const failure = describeUnreachable(profile, options.url, error);
		const { cause } = error as { cause?: unknown };
		const raw = cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error);
		throw serviceError(ctx.getNode(), { code: failure.httpCode, message: raw }, failure, request.itemIndex);
	}
}

function parseBody(
	ctx: ServiceContext,
	profile: ServiceProfile,
	response: IN8nHttpFullResponse,
	request: ServiceRequest,
): unknown {
	const text = typeof response.body === 'string' ? response.body : '';
	if (text.trim() === '') return {};
	try {
		return JSON.parse(text);
	} catch {
		throw serviceError(
			ctx.getNode(),
			{ body: text.slice(0, 500) },
			describeUnreadable(profile, response, request),
			request.itemIndex,
		);
	}
}

/**
 * One request to a service through the credential's authentication. Only a 429 is retried
 * (after waiting for a near reset): any other failure may have been carried out by the service.
 */
export async function requestService(
	ctx: ServiceContext,
	profile: ServiceProfile,
	request: ServiceRequest,
): Promise<ServiceResponse> {
	const credentials = await ctx.getCredentials(profile.credentialType);
	const options: IHttpRequestOptions = {
		method: request.method,
		url: request.url ?? joinUrl(credentials.baseUrl, request.path),
		qs: request.qs,
		// A query parameter given twice is sent twice (`tag=a&tag=b`), not as `tag[0]=a`.
		arrayFormat: 'repeat',
		headers: { Accept: 'application/json' },
		encoding: 'text',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: REQUEST_TIMEOUT_MS,
	};
	if (request.body !== undefined) {
		options.body = JSON.stringify(request.body);
		options.headers = { ...options.headers, 'Content-Type': 'application/json' };
	}

	const sent: ServiceRequest = { ...request, url: options.url };
	for (let retries = 0; ; retries++) {
		const response = await send(ctx, profile, options, request);
		const rateLimit = readRateLimit(response.headers as Record<string, string>);
		const status = response.statusCode;
		if (status === 429 && retries < MAX_RATE_LIMIT_RETRIES) {
			const waitMs = waitForResetMs(rateLimit, Date.now(), NEAR_RESET_MS);
			if (waitMs !== undefined) {
				await waitUnlessCancelled(ctx, waitMs + RESET_MARGIN_MS);
				continue;
			}
		}
		if (status >= 400 || status < 200) {
			const body = typeof response.body === 'string' ? response.body : '';
			const handling = { retries, maxWaitMs: NEAR_RESET_MS };
			const failure = describeFailure(profile, status, body, rateLimit, sent, handling);
			throw serviceError(ctx.getNode(), { status, body: body.slice(0, 2000) }, failure, request.itemIndex);
		}
		return {
			url: options.url,
			body: parseBody(ctx, profile, response, sent),
			headers: response.headers,
			statusCode: status,
			rateLimit,
		};
	}
}
