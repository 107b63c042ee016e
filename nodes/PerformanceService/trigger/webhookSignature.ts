import { createHmac, timingSafeEqual } from 'node:crypto';

import { epochToMilliseconds } from '../../shared/http/epochTime';

/**
 * The verifier of signed deliveries (performance service, "Events"): `X-Service-Webhook-Signature`
 * is the lower-case hex HMAC-SHA256, keyed with the signing secret, of the
 * `X-Service-Webhook-Timestamp` value, a full stop, and the raw request body. Pure: no I/O, no
 * clock of its own, nothing logged, nothing from n8n.
 */

export const TIMESTAMP_HEADER = 'x-service-webhook-timestamp';
export const SIGNATURE_HEADER = 'x-service-webhook-signature';

export const DEFAULT_TOLERANCE_SECONDS = 300;

export type VerificationFailure =
	| 'no_signing_secret'
	| 'missing_timestamp'
	| 'missing_signature'
	| 'malformed_timestamp'
	| 'malformed_signature'
	| 'signature_mismatch'
	| 'timestamp_too_old'
	| 'timestamp_in_future';

/** `secretIndex`: the index into `secrets` of the first one that signed the delivery. */
export type VerificationResult =
	| { ok: true; secretIndex: number }
	| { ok: false; reason: VerificationFailure };

export interface SignedDelivery {
	/** Header values as received; `undefined` when absent. */
	timestamp: string | undefined;
	signature: string | undefined;
	/** The exact bytes of the request body (a string is taken as UTF-8). */
	rawBody: Uint8Array | string;
}

export interface VerifyOptions {
	/** Secrets to accept, current first; blank ones are ignored. */
	secrets: readonly string[];
	/** Maximum age and maximum lead of the timestamp in seconds; 0 turns the check off. */
	toleranceSeconds: number;
	/** The receiver's clock in epoch milliseconds. */
	nowMs: number;
}

/** Lower-case hex HMAC-SHA256 of `${timestamp}.${rawBody}`, keyed with `secret`. */
export function computeSignature(secret: string, timestamp: string, rawBody: Uint8Array | string) {
	return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/**
 * Epoch milliseconds of a timestamp header value (1-15 digits, so a safe integer), else
 * `undefined`. The unit is not published: above 10^10 it is milliseconds (as seconds that is the
 * year 2286), as for every epoch the services send.
 */
export function parseTimestamp(value: string): number | undefined {
	if (!/^[0-9]{1,15}$/.test(value)) return undefined;
	return epochToMilliseconds(Number(value));
}

/**
 * Verifies one delivery. Every secret is compared, each in constant time; the signature is
 * checked before the timestamp window, so a sender without the secret learns nothing about it.
 */
export function verifyDelivery(
	delivery: SignedDelivery,
	options: VerifyOptions,
): VerificationResult {
	const fail = (reason: VerificationFailure): VerificationResult => ({ ok: false, reason });
	const { timestamp, signature, rawBody } = delivery;
	if (!options.secrets.some((secret) => secret.trim() !== '')) return fail('no_signing_secret');
	if (!timestamp) return fail('missing_timestamp');
	if (!signature) return fail('missing_signature');
	// SHA-256 is 32 bytes; the service sends them as 64 lower-case hex digits.
	if (!/^[0-9a-f]{64}$/.test(signature)) return fail('malformed_signature');
	const timestampMs = parseTimestamp(timestamp);
	if (timestampMs === undefined) return fail('malformed_timestamp');

	const received = Buffer.from(signature, 'hex');
	const signedWith = options.secrets.map(
		(secret) =>
			secret.trim() !== '' &&
			timingSafeEqual(Buffer.from(computeSignature(secret, timestamp, rawBody), 'hex'), received),
	);
	const secretIndex = signedWith.indexOf(true);
	if (secretIndex === -1) return fail('signature_mismatch');

	// Within `toleranceSeconds` of the receiver's clock in either direction.
	const toleranceMs = options.toleranceSeconds > 0 ? options.toleranceSeconds * 1000 : Infinity;
	if (options.nowMs - timestampMs > toleranceMs) return fail('timestamp_too_old');
	if (timestampMs - options.nowMs > toleranceMs) return fail('timestamp_in_future');
	return { ok: true, secretIndex };
}
