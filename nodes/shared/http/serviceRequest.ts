import {
	NodeApiError,
	sleep,
	type IAdditionalCredentialOptions,
	type IHttpRequestOptions,
	type IN8nHttpFullResponse,
	type JsonObject,
} from 'n8n-workflow';

import {
	checkFollowedUrl,
	checkRedirect,
	joinUrl,
	readBaseUrl,
	readCredentials,
	secretsReadBy,
} from './baseUrl';
import { readHeader } from './headers';
import { readPacer } from '../pacing/pacers';
import {
	NEAR_RESET_MS,
	readRateLimit,
	waitForResetMs,
	type RateLimitInfo,
} from './rateLimitHeaders';
import { describeHeldBack } from './rateLimitMessages';
import {
	describeFailure,
	describeRefusedRedirect,
	describeRefusedUrl,
	describeUnreachable,
	describeUnreadable,
} from './serviceErrors';
import type {
	FailureDescription,
	ServiceContext,
	ServiceProfile,
	ServiceRequest,
	ServiceResponse,
} from './serviceTypes';

const MAX_RATE_LIMIT_RETRIES = 3;
const REQUEST_TIMEOUT_MS = 60_000;
const RESET_MARGIN_MS = 250;

/** Sleeps in short steps so that a cancelled execution stops waiting. */
async function waitUnlessCancelled(ms: number, cancelled: () => boolean): Promise<void> {
	const until = Date.now() + ms;
	while (!cancelled() && Date.now() < until) {
		await sleep(Math.min(until - Date.now(), 1000));
	}
}

/**
 * Fails the request's item with `failure`, keeping this package's message: NodeApiError swaps any
 * message that mentions a Node.js error code (ECONNREFUSED, …) for a generic one without the fix.
 */
function fail(
	ctx: ServiceContext,
	request: ServiceRequest,
	errorResponse: JsonObject,
	failure: FailureDescription,
): never {
	// A service may echo the token or key it was sent: it never reaches a message or the details.
	const hidden = (text: string) =>
		secretsReadBy(ctx).reduce((said, secret) => said.split(secret).join('***'), text);
	const response = JSON.parse(hidden(JSON.stringify(errorResponse))) as JsonObject;
	const error = new NodeApiError(ctx.getNode(), response, {
		...failure,
		message: hidden(failure.message),
		description: hidden(failure.description),
		itemIndex: request.itemIndex,
	});
	error.message = hidden(failure.message);
	error.description = hidden(failure.description);
	throw error;
}

/**
 * The URL to send: the path below the base URL, or a followed URL when the origin rule allows
 * it. A refused URL fails here, before anything is sent.
 */
async function targetUrl(
	ctx: ServiceContext,
	profile: ServiceProfile,
	request: ServiceRequest,
): Promise<string> {
	const baseUrl = await readBaseUrl(ctx, profile);
	if (request.url === undefined) return joinUrl(baseUrl, request.path);
	const followed = checkFollowedUrl(request.url, baseUrl);
	if (followed.url !== undefined) return followed.url;
	const failure = describeRefusedUrl(profile, followed.refused, baseUrl);
	return fail(ctx, request, { code: failure.httpCode, url: followed.refused.shownUrl }, failure);
}

/**
 * The credential read once for this context, handed to n8n's authentication helper so that it
 * does not read it again for every request (in n8n each read loads and decrypts it from the
 * database: about 1.8 ms, see docs/benchmarks.md).
 */
async function credentialOfContext(
	ctx: ServiceContext,
	profile: ServiceProfile,
): Promise<IAdditionalCredentialOptions | undefined> {
	const details = ctx.getNode().credentials?.[profile.credentialType];
	if (!details?.id) return undefined;
	const data = await readCredentials(ctx, profile);
	return {
		credentialsDecrypted: {
			id: details.id,
			name: details.name,
			type: profile.credentialType,
			data,
		},
	};
}

/** A request through the credential's pace, with its 429s waited for and retried. */
async function sendPaced(
	ctx: ServiceContext,
	profile: ServiceProfile,
	request: ServiceRequest,
	options: IHttpRequestOptions,
): Promise<{ response: IN8nHttpFullResponse; rateLimit: RateLimitInfo; retries: number }> {
	const requestAtUrl: ServiceRequest = { ...request, url: options.url };
	const pacer = await readPacer(ctx, profile);
	const credential = await credentialOfContext(ctx, profile);
	const signal = 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined;
	const cancelled = () => signal?.aborted === true;
	for (let retries = 0; ; retries++) {
		const admission = await pacer.admit(NEAR_RESET_MS, cancelled);
		if (!admission.admitted) {
			const failure = describeHeldBack(profile, admission.heldUntil, requestAtUrl);
			fail(ctx, request, { status: 429 }, failure);
		}
		let response: IN8nHttpFullResponse;
		try {
			response = (await ctx.helpers.httpRequestWithAuthentication.call(
				ctx,
				profile.credentialType,
				options,
				credential,
			)) as IN8nHttpFullResponse;
		} catch (error) {
			// No answer: the request leaves its place in flight; an answer's headers teach the pace.
			admission.settle();
			const failure = describeUnreachable(profile, options.url, error);
			// The underlying error's message when there is one (n8n wraps the request library's).
			const { cause } = error as { cause?: unknown };
			const raw = cause instanceof Error ? cause : error;
			const message = raw instanceof Error ? raw.message : String(raw);
			fail(ctx, request, { code: failure.httpCode, message }, failure);
		}
		const rateLimit = readRateLimit(response.headers);
		const status = response.statusCode;
		admission.settle({ status, rateLimit, ownLimit: request.ownRateLimit });
		if (status === 429 && retries < MAX_RATE_LIMIT_RETRIES) {
			const waitMs = waitForResetMs(rateLimit, Date.now());
			if (waitMs !== undefined) {
				await waitUnlessCancelled(waitMs + RESET_MARGIN_MS, cancelled);
				continue;
			}
		}
		return { response, rateLimit, retries };
	}
}

/**
 * The package's one request function: every request to either service, and every URL either
 * service names, passes here. Goes through the credential's authentication; only a 429 is
 * retried (after waiting for a near reset), since any other failure may have been carried out.
 * n8n follows no redirect (it would send the credential to any host): a read follows one here,
 * through the redirect rule (`checkRedirect`), each hop paced like any request.
 */
export async function requestService(
	ctx: ServiceContext,
	profile: ServiceProfile,
	request: ServiceRequest,
): Promise<ServiceResponse> {
	const options: IHttpRequestOptions = {
		method: request.method,
		url: await targetUrl(ctx, profile, request),
		qs: request.qs,
		// A query parameter given twice is sent twice (`tag=a&tag=b`), not as `tag[0]=a`.
		arrayFormat: 'repeat',
		headers: { Accept: 'application/json' },
		encoding: 'text',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		timeout: REQUEST_TIMEOUT_MS,
	};
	if (request.body !== undefined) {
		options.body = JSON.stringify(request.body);
		options.headers = { ...options.headers, 'Content-Type': 'application/json' };
	}

	for (let hops = 0; ; hops++) {
		const requestAtUrl: ServiceRequest = { ...request, url: options.url };
		const { response, rateLimit, retries } = await sendPaced(ctx, profile, request, options);
		const status = response.statusCode;
		if (status >= 300 && status < 400) {
			const location = readHeader(response.headers, 'location');
			const baseUrl = await readBaseUrl(ctx, profile);
			const next = checkRedirect(
				{ status, method: request.method, location, from: options.url, hops },
				baseUrl,
			);
			if (next.url === undefined) {
				const failure = describeRefusedRedirect(profile, request, status, next.refused, baseUrl);
				fail(ctx, request, { status, url: next.refused.shownUrl }, failure);
			}
			// The Location is the whole address: the first request's query is not sent again.
			options.url = next.url;
			options.qs = undefined;
			continue;
		}
		const text = typeof response.body === 'string' ? response.body : '';
		if (status >= 400 || status < 200) {
			const failure = describeFailure(profile, status, text, rateLimit, requestAtUrl, retries);
			fail(ctx, request, { status, body: text.slice(0, 2000) }, failure);
		}
		let body: unknown = {};
		try {
			if (text.trim() !== '') body = JSON.parse(text);
		} catch {
			const failure = describeUnreadable(profile, response, requestAtUrl);
			fail(ctx, request, { body: text.slice(0, 500) }, failure);
		}
		return { url: options.url, body, headers: response.headers };
	}
}
