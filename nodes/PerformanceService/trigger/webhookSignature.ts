import { createHmac, timingSafeEqual } from 'node:crypto';

import { epochToMilliseconds } from '../../shared/http/epochTime';

/**
 * The package's one verifier of signed webhook deliveries (performance service, "Events"):
 * `X-Service-Webhook-Signature` is the lower-case hex HMAC-SHA256, keyed with the signing
 * secret, of the `X-Service-Webhook-Timestamp` value, a full stop, and the raw request body.
 * Pure functions: no I/O, no clock of their own, nothing logged.
 */

export const TIMESTAMP_HEADER = 'x-service-webhook-timestamp';
export const SIGNATURE_HEADER = 'x-service-webhook-signature';

export const DEFAULT_TOLERANCE_SECONDS = 300;

/** 1 to 15 digits: every such value is a safe integer. */
const TIMESTAMP_PATTERN = /^[0-9]{1,15}$/;
/** SHA-256 is 32 bytes; the service sends them as 64 lower-case hex digits. */
const SIGNATURE_PATTERN = /^[0-9a-f]{64}$/;

export type VerificationFailure =
	| 'no_signing_secret'
	| 'missing_timestamp'
	| 'missing_signature'
	| 'malformed_timestamp'
	| 'malformed_signature'
	| 'signature_mismatch'
	| 'timestamp_too_old'
	| 'timestamp_in_future';

export type VerificationResult =
	| {
			ok: true;
			/** The timestamp in epoch milliseconds. */
			timestampMs: number;
			/** Index into `secrets` of the secret that signed the delivery. */
			secretIndex: number;
	  }
	| { ok: false; reason: VerificationFailure };

export interface SignedDelivery {
	/** Header values as received; `undefined` when absent. */
	timestamp: string | undefined;
	signature: string | undefined;
	/** The exact bytes of the request body (a string is taken as UTF-8). */
	rawBody: Uint8Array | string;
}

export interface VerifyOptions {
	/** Secrets to accept, current first; empty strings are ignored. */
	secrets: readonly string[];
	/** Maximum age and maximum lead of the timestamp in seconds; 0 turns the check off. */
	toleranceSeconds: number;
	/** The receiver's clock in epoch milliseconds. */
	nowMs: number;
}

/** Lower-case hex HMAC-SHA256 of `${timestamp}.${rawBody}`, keyed with `secret`. */
export function computeSignature(
	secret: string,
	timestamp: string,
	rawBody: Uint8Array | string,
): string {
	return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/** Epoch milliseconds of a timestamp header value, or `undefined` when it is not 1-15 digits. */
export function parseTimestamp(value: string): number | undefined {
	if (!TIMESTAMP_PATTERN.test(value)) return undefined;
	// The unit is not published: seconds or milliseconds, told apart as for every service epoch.
	return epochToMilliseconds(Number(value));
}

/** Whether a timestamp lies within `toleranceSeconds` of `nowMs` in either direction. */
export function checkTimestampWindow(
	timestampMs: number,
	nowMs: number,
	toleranceSeconds: number,
): 'timestamp_too_old' | 'timestamp_in_future' | undefined {
	if (!(toleranceSeconds > 0)) return undefined;
	const toleranceMs = toleranceSeconds * 1000;
	if (nowMs - timestampMs > toleranceMs) return 'timestamp_too_old';
	if (timestampMs - nowMs > toleranceMs) return 'timestamp_in_future';
	return undefined;
}

/**
 * Index of the secret whose signature equals `signature` (64 lower-case hex digits), or -1.
 * Every secret is compared, each in constant time over two 32-byte buffers.
 */
function matchingSecret(
	secrets: readonly string[],
	delivery: SignedDelivery,
	signature: string,
): number {
	const received = Buffer.from(signature, 'hex');
	let match = -1;
	secrets.forEach((secret, index) => {
		const expected = Buffer.from(
			computeSignature(secret, delivery.timestamp ?? '', delivery.rawBody),
			'hex',
		);
		if (timingSafeEqual(expected, received) && match === -1) match = index;
	});
	return match;
}

/**
 * Verifies one delivery. The signature is checked before the timestamp window, so a sender
 * without the secret learns nothing about the window.
 */
export function verifyDelivery(
	delivery: SignedDelivery,
	options: VerifyOptions,
): VerificationResult {
	const secrets = options.secrets.filter((secret) => secret.trim() !== '');
	if (secrets.length === 0) return { ok: false, reason: 'no_signing_secret' };
	const { timestamp, signature } = delivery;
	if (timestamp === undefined || timestamp === '')
		return { ok: false, reason: 'missing_timestamp' };
	if (signature === undefined || signature === '')
		return { ok: false, reason: 'missing_signature' };
	if (!SIGNATURE_PATTERN.test(signature)) return { ok: false, reason: 'malformed_signature' };
	const timestampMs = parseTimestamp(timestamp);
	if (timestampMs === undefined) return { ok: false, reason: 'malformed_timestamp' };

	const secretIndex = matchingSecret(secrets, delivery, signature);
	if (secretIndex === -1) return { ok: false, reason: 'signature_mismatch' };

	const outside = checkTimestampWindow(timestampMs, options.nowMs, options.toleranceSeconds);
	if (outside) return { ok: false, reason: outside };
	// Report the index into the caller's list, not into the filtered one.
	return { ok: true, timestampMs, secretIndex: options.secrets.indexOf(secrets[secretIndex]) };
}
