import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { readHeader } from '../../shared/http/headers';
import {
	DEFAULT_TOLERANCE_SECONDS,
	SIGNATURE_HEADER,
	TIMESTAMP_HEADER,
	verifyDelivery,
	type SignedDelivery,
	type VerificationResult,
} from './webhookSignature';
import { ALL_EVENTS, DEFAULT_DUPLICATE_WINDOW_HOURS } from './triggerProperties';
import { reserveEventStart } from './n8nWebhookContract';
import { reject, reply, type DeliveryResponse } from './rejections';
import { signingSecretsFor } from './signingSecrets';

/**
 * The service's events are a few kilobytes; a larger body is refused before the HMAC is computed,
 * so that unsigned junk cannot make the trigger hash megabytes.
 */
export const MAX_DELIVERY_BYTES = 1024 * 1024;

/** What n8n's request object offers: `rawBody` holds the exact bytes received. */
interface DeliveryRequest {
	rawBody?: unknown;
	readRawBody?: () => Promise<void>;
}

interface TriggerOptions {
	timestampTolerance?: unknown;
	includeDeliveryHeaders?: unknown;
	duplicateWindowHours?: unknown;
}

interface Settings {
	events: string[];
	toleranceSeconds: number;
	includeDeliveryHeaders: boolean;
	duplicateWindowSeconds: number;
}

/**
 * Handles one delivery. Rejections, duplicates and unselected events are answered here at once
 * and start nothing. A verified delivery of a new, selected event returns workflow data and is
 * answered by n8n only once it has created the execution: a 2xx means the event is recorded.
 */
export async function handleDelivery(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	const res = ctx.getResponseObject() as DeliveryResponse;
	try {
		return await receive(ctx, res);
	} catch (error) {
		// Throwing here would let n8n record a failed execution for an unverified request.
		return failed(ctx, res, 'internal_error', 'could not process a delivery', error);
	}
}

/** Logs what went wrong (never a secret) and answers with the rejection. */
function failed(
	ctx: IWebhookFunctions,
	res: DeliveryResponse,
	reason: 'internal_error' | 'credential_unavailable',
	what: string,
	error: unknown,
): IWebhookResponseData {
	ctx.logger.error(`Performance Service Trigger ${what}`, {
		error: (error as Error).message,
		workflowId: ctx.getWorkflow().id,
	});
	return reject(res, reason);
}

/** Verify, parse, filter, reserve the event, build the item: each step may answer at once. */
async function receive(
	ctx: IWebhookFunctions,
	res: DeliveryResponse,
): Promise<IWebhookResponseData> {
	const receivedAt = new Date();
	const settings = readSettings(ctx);

	const rawBody = await readRawBody(ctx.getRequestObject() as DeliveryRequest);
	if (!rawBody) return reject(res, 'body_unavailable');
	if (rawBody.length > MAX_DELIVERY_BYTES) return reject(res, 'payload_too_large');

	const headers = ctx.getHeaderData() as IDataObject;
	const delivery: SignedDelivery = {
		timestamp: readHeader(headers, TIMESTAMP_HEADER),
		signature: readHeader(headers, SIGNATURE_HEADER),
		rawBody,
	};
	let verification: VerificationResult;
	try {
		verification = await verifyAgainstCredential(
			ctx,
			delivery,
			settings.toleranceSeconds,
			receivedAt.getTime(),
		);
	} catch (error) {
		return failed(ctx, res, 'credential_unavailable', 'could not read its credential', error);
	}
	if (!verification.ok) {
		ctx.logger.debug('Performance Service Trigger rejected a delivery', {
			reason: verification.reason,
		});
		return reject(res, verification.reason);
	}

	const body = parseJsonObject(rawBody);
	if (!body) return reject(res, 'invalid_json');

	if (!isSelected(settings.events, eventTypeOf(body))) {
		return reply(res, 200, { received: true, ignored: 'event_not_selected' });
	}
	const accept = await reserveEventStart(ctx, {
		body,
		rawBody,
		windowSeconds: settings.duplicateWindowSeconds,
		receivedAtMs: receivedAt.getTime(),
	});
	if (!accept) return reply(res, 200, { received: true, duplicate: true });

	return accept(
		settings.includeDeliveryHeaders
			? withDelivery(body, headers, receivedAt, verification.secretIndex)
			: body,
	);
}

/** A non-negative number, else the fallback (never "off" by accident). */
function nonNegative(value: unknown, fallback: number): number {
	const number = Number(value ?? fallback);
	return Number.isFinite(number) && number >= 0 ? number : fallback;
}

function readSettings(ctx: IWebhookFunctions): Settings {
	const events = ctx.getNodeParameter('events', [ALL_EVENTS]) as unknown;
	const options = ctx.getNodeParameter('options', {}) as TriggerOptions;
	return {
		events: Array.isArray(events) ? events.map(String) : [String(events)],
		toleranceSeconds: nonNegative(options.timestampTolerance, DEFAULT_TOLERANCE_SECONDS),
		includeDeliveryHeaders: options.includeDeliveryHeaders === true,
		duplicateWindowSeconds:
			nonNegative(options.duplicateWindowHours, DEFAULT_DUPLICATE_WINDOW_HOURS) * 3600,
	};
}

/** The exact request bytes; n8n reads them before the node runs (`readRawBody` if it did not). */
async function readRawBody(request: DeliveryRequest): Promise<Buffer | undefined> {
	if (!Buffer.isBuffer(request.rawBody) && typeof request.readRawBody === 'function') {
		await request.readRawBody();
	}
	return Buffer.isBuffer(request.rawBody) ? request.rawBody : undefined;
}

/** Secrets that verify nothing make it read the credential again: the user may just have rotated the secret. */
async function verifyAgainstCredential(
	ctx: IWebhookFunctions,
	delivery: SignedDelivery,
	toleranceSeconds: number,
	receivedAtMs: number,
): Promise<VerificationResult> {
	const options = { toleranceSeconds, nowMs: receivedAtMs };
	const read = await signingSecretsFor(ctx, receivedAtMs);
	const verification = verifyDelivery(delivery, { ...options, secrets: read.secrets });
	if (verification.ok || verification.reason !== 'signature_mismatch' || read.readForThisCall)
		return verification;
	const newer = await signingSecretsFor(ctx, Date.now(), read.number);
	return verifyDelivery(delivery, { ...options, secrets: newer.secrets });
}

function parseJsonObject(rawBody: Buffer): IDataObject | undefined {
	try {
		const parsed: unknown = JSON.parse(rawBody.toString('utf8'));
		return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
			? (parsed as IDataObject)
			: undefined;
	} catch {
		return undefined;
	}
}

/** The body's `type`, else its `event`. */
function eventTypeOf(body: IDataObject): string | undefined {
	if (typeof body.type === 'string') return body.type;
	return typeof body.event === 'string' ? body.event : undefined;
}

function isSelected(events: string[], type: string | undefined): boolean {
	return events.includes(ALL_EVENTS) || (type !== undefined && events.includes(type));
}

/** The body plus `_delivery`: the request headers, the receive time and which secret verified it. */
function withDelivery(
	body: IDataObject,
	headers: IDataObject,
	receivedAt: Date,
	secretIndex: number,
): IDataObject {
	return {
		...body,
		_delivery: {
			headers: { ...headers },
			receivedAt: receivedAt.toISOString(),
			signedWith: secretIndex === 0 ? 'current' : 'previous',
		},
	};
}
