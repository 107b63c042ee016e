import {
	NodeOperationError,
	type IDataObject,
	type IHookFunctions,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { isRecord } from '../../shared/lists/recordFields';
import { keptInProcess, readRawBody, reply } from '../../shared/webhooks/n8nWebhookContract';
import { PERFORMANCE_SERVICE } from '../transport';
import { startOncePerEvent } from './startedEvents';
import {
	DEFAULT_TOLERANCE_SECONDS,
	SIGNATURE_HEADER,
	TIMESTAMP_HEADER,
	verifyDelivery,
	type SignedDelivery,
	type VerificationFailure,
	type VerificationResult,
} from './webhookSignature';

export const ALL_EVENTS = '*';
/** Long enough for the service's 5 attempts with backoff. */
export const DEFAULT_DUPLICATE_WINDOW_HOURS = 24;

/**
 * The service's events are a few kilobytes; a larger body is refused before the HMAC is computed,
 * so that unsigned junk cannot make the trigger hash megabytes.
 */
const MAX_DELIVERY_BYTES = 1024 * 1024;

/** Status and short reason of each rejection; they name no secret and no expected signature. */
const REJECTIONS = {
	no_signing_secret: [
		401,
		'No webhook signing secret is set on the credential, so no delivery is accepted.',
	],
	missing_timestamp: [401, 'The X-Service-Webhook-Timestamp header is missing.'],
	missing_signature: [401, 'The X-Service-Webhook-Signature header is missing.'],
	malformed_timestamp: [401, 'The timestamp header must be 1 to 15 digits.'],
	malformed_signature: [401, 'The signature header must be 64 lower-case hex digits.'],
	signature_mismatch: [401, 'The signature does not match the timestamp and body.'],
	timestamp_too_old: [401, 'The timestamp is older than the tolerance allows.'],
	timestamp_in_future: [401, 'The timestamp is further in the future than the tolerance allows.'],
	body_unavailable: [401, 'The raw request body is not available to verify.'],
	payload_too_large: [
		413,
		'The body is larger than the 1 MiB a delivery may have; it was not verified.',
	],
	invalid_json: [400, 'The verified body is not a JSON object.'],
	credential_unavailable: [500, 'The trigger could not read its credential.'],
	internal_error: [500, 'The delivery could not be processed.'],
} satisfies Record<VerificationFailure, [number, string]> & Record<string, [number, string]>;

/**
 * Handles one delivery. Rejections, duplicates and unselected events are answered here at once
 * and start nothing. A verified delivery of a new, selected event returns workflow data and is
 * answered by n8n only once it has created the execution: a 2xx means the event is recorded.
 */
export async function handleDelivery(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	try {
		return await receive(ctx);
	} catch (error) {
		// Throwing here would let n8n record a failed execution for an unverified request.
		return failed(ctx, 'internal_error', error);
	}
}

/** Answers the request now with the rejection: no workflow starts. */
function reject(ctx: IWebhookFunctions, reason: keyof typeof REJECTIONS): IWebhookResponseData {
	const [status, message] = REJECTIONS[reason];
	return reply(ctx, status, { error: reason, message });
}

/** Logs what went wrong (never a secret) and answers with the rejection. */
function failed(ctx: IWebhookFunctions, reason: keyof typeof REJECTIONS, error: unknown) {
	ctx.logger.error(`Performance Service Trigger: ${REJECTIONS[reason][1]}`, {
		error: (error as Error).message,
		workflowId: ctx.getWorkflow().id,
	});
	return reject(ctx, reason);
}

/**
 * A non-negative number, else the fallback: a blank or non-numeric option (an empty expression
 * gives '') never turns a check off by accident, though `Number('')` is 0.
 */
function nonNegative(value: unknown, fallback: number): number {
	const number =
		typeof value === 'number' || (typeof value === 'string' && value.trim() !== '')
			? Number(value)
			: Number.NaN;
	return Number.isFinite(number) && number >= 0 ? number : fallback;
}

/** A header or credential field as text ('' when absent). Node.js joins a header sent twice with ", ". */
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Verify, parse, filter, reserve the event, build the item: each step may answer at once. */
async function receive(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	const receivedAtMs = Date.now();
	const events = ctx.getNodeParameter('events', [ALL_EVENTS]) as unknown;
	const options = ctx.getNodeParameter('options', {}) as IDataObject;

	const rawBody = await readRawBody(ctx);
	if (!rawBody) return reject(ctx, 'body_unavailable');
	if (rawBody.length > MAX_DELIVERY_BYTES) return reject(ctx, 'payload_too_large');

	const headers = ctx.getHeaderData() as IDataObject;
	const delivery: SignedDelivery = {
		timestamp: text(headers[TIMESTAMP_HEADER]),
		signature: text(headers[SIGNATURE_HEADER]),
		rawBody,
	};
	const tolerance = nonNegative(options.timestampTolerance, DEFAULT_TOLERANCE_SECONDS);
	let verification: VerificationResult;
	try {
		verification = await verifyWithCredential(ctx, delivery, tolerance, receivedAtMs);
	} catch (error) {
		return failed(ctx, 'credential_unavailable', error);
	}
	if (!verification.ok) {
		ctx.logger.debug('Performance Service Trigger rejected a delivery', {
			reason: verification.reason,
		});
		return reject(ctx, verification.reason);
	}

	let json: unknown;
	try {
		json = JSON.parse(rawBody.toString('utf8'));
	} catch {
		// Not JSON: answered as invalid below.
	}
	if (!isRecord(json)) return reject(ctx, 'invalid_json');

	// The event type is the body's `type`, else its `event`.
	const type = typeof json.type === 'string' ? json.type : json.event;
	const selected: unknown[] = (Array.isArray(events) ? events : [events]).map(String);
	if (!selected.includes(ALL_EVENTS) && !selected.includes(type))
		return reply(ctx, 200, { received: true, ignored: 'event_not_selected' });

	const windowSeconds =
		nonNegative(options.duplicateWindowHours, DEFAULT_DUPLICATE_WINDOW_HOURS) * 3600;
	const _delivery = {
		headers: { ...headers },
		receivedAt: new Date(receivedAtMs).toISOString(),
		signedWith: verification.secretIndex === 0 ? 'current' : 'previous',
	};
	const item = options.includeDeliveryHeaders === true ? { ...json, _delivery } : json;
	const started = await startOncePerEvent(ctx, json, rawBody, item, windowSeconds, receivedAtMs);
	return started ?? reply(ctx, 200, { received: true, duplicate: true });
}

/**
 * The secrets a delivery may be signed with: the current one, then the previous one (for
 * rotation), exactly as entered (the HMAC key is the bytes the service was given). Empty when the
 * current secret is not set: then nothing is accepted, whatever the previous field holds.
 */
async function readSigningSecrets(ctx: IWebhookFunctions | IHookFunctions): Promise<string[]> {
	const credentials = await ctx.getCredentials(PERFORMANCE_SERVICE.credentialType);
	const current = text(credentials.webhookSigningSecret);
	const previous = text(credentials.previousWebhookSigningSecret);
	return current.trim() === '' ? [] : [current, previous];
}

/** Fails activation (and "Listen for test event") while the credential has no signing secret. */
export async function assertSigningSecret(ctx: IHookFunctions): Promise<void> {
	if ((await readSigningSecrets(ctx)).length > 0) return;
	throw new NodeOperationError(
		ctx.getNode(),
		`The "${PERFORMANCE_SERVICE.credentialName}" credential has no Webhook Signing Secret, so this trigger would reject every delivery`,
		{
			description:
				'Open the credential, set "Webhook Signing Secret" to the signing secret entered next to this webhook URL in the service\'s Optimize → Integrations section, save it, and activate the workflow again.',
		},
	);
}

/**
 * How long one n8n process reuses the signing secrets it read. n8n 2.x builds a V8 expression
 * isolate and queries the database for every credential read in a webhook call; under a burst of
 * deliveries that was a third of the trigger's cost. A secret removed from the credential is
 * still accepted for at most this long; a new one is used at once (see `verifyWithCredential`).
 */
const SECRETS_REUSED_FOR_MS = 2_000;

/** The newest read of each credential (by id) in this process; a read under way is shared. */
const secretReads = new Map<string, { startedAtMs: number; secrets: Promise<string[]> }>();

/** Reads the secrets and remembers the read, unless it finds no secret or fails. */
function readSecrets(ctx: IWebhookFunctions, id: string): Promise<string[]> {
	const read = { startedAtMs: Date.now(), secrets: readSigningSecrets(ctx) };
	secretReads.delete(id);
	keptInProcess(secretReads, id, () => read);
	const forget = () => secretReads.delete(id);
	read.secrets.then((secrets) => secrets.length === 0 && forget(), forget);
	return read.secrets;
}

/**
 * Verifies against secrets read less than SECRETS_REUSED_FOR_MS ago. Reused secrets that verify
 * nothing make it read the credential again: the user may just have rotated the secret.
 */
async function verifyWithCredential(
	ctx: IWebhookFunctions,
	delivery: SignedDelivery,
	toleranceSeconds: number,
	nowMs: number,
): Promise<VerificationResult> {
	const verify = async (secrets: Promise<string[]>) =>
		verifyDelivery(delivery, { toleranceSeconds, nowMs, secrets: await secrets });
	const id = ctx.getNode().credentials?.[PERFORMANCE_SERVICE.credentialType]?.id;
	// A credential known by name only (no id) is read for every delivery.
	if (!id) return await verify(readSigningSecrets(ctx));
	const known = secretReads.get(id);
	if (known && nowMs - known.startedAtMs < SECRETS_REUSED_FOR_MS) {
		const verification = await verify(known.secrets);
		if (verification.ok || verification.reason !== 'signature_mismatch') return verification;
	}
	return await verify(readSecrets(ctx, id));
}
