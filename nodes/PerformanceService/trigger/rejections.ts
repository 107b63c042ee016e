import type { IDataObject, IWebhookResponseData } from 'n8n-workflow';

import type { VerificationFailure } from './webhookSignature';

/** The parts of n8n's response object (an Express response, a Node.js ServerResponse) used here. */
export interface DeliveryResponse {
	statusCode: number;
	readonly headersSent: boolean;
	setHeader(name: string, value: string): unknown;
	end(chunk: string): unknown;
}

export type Rejection =
	| VerificationFailure
	| 'body_unavailable'
	| 'payload_too_large'
	| 'invalid_json'
	| 'credential_unavailable'
	| 'internal_error';

/** Short reasons sent with each rejection; they name no secret and no expected signature. */
export const REJECTIONS: Record<Rejection, { status: number; message: string }> = {
	no_signing_secret: {
		status: 401,
		message: 'No webhook signing secret is set on the credential, so no delivery is accepted.',
	},
	missing_timestamp: { status: 401, message: 'The X-Service-Webhook-Timestamp header is missing.' },
	missing_signature: { status: 401, message: 'The X-Service-Webhook-Signature header is missing.' },
	malformed_timestamp: { status: 401, message: 'The timestamp header must be 1 to 15 digits.' },
	malformed_signature: {
		status: 401,
		message: 'The signature header must be 64 lower-case hex digits.',
	},
	signature_mismatch: {
		status: 401,
		message: 'The signature does not match the timestamp and body.',
	},
	timestamp_too_old: { status: 401, message: 'The timestamp is older than the tolerance allows.' },
	timestamp_in_future: {
		status: 401,
		message: 'The timestamp is further in the future than the tolerance allows.',
	},
	body_unavailable: { status: 401, message: 'The raw request body is not available to verify.' },
	payload_too_large: {
		status: 413,
		message: 'The body is larger than the 1 MiB a delivery may have; it was not verified.',
	},
	invalid_json: { status: 400, message: 'The verified body is not a JSON object.' },
	credential_unavailable: { status: 500, message: 'The trigger could not read its credential.' },
	internal_error: { status: 500, message: 'The delivery could not be processed.' },
};

/** Answers the request now (a rejection, a duplicate, an event not selected): no workflow starts. */
export function reply(
	res: DeliveryResponse,
	status: number,
	body: IDataObject,
): IWebhookResponseData {
	if (!res.headersSent) {
		res.statusCode = status;
		res.setHeader('Content-Type', 'application/json; charset=utf-8');
		res.setHeader('Cache-Control', 'no-store');
		res.end(JSON.stringify(body));
	}
	return { noWebhookResponse: true };
}

export function reject(res: DeliveryResponse, reason: Rejection): IWebhookResponseData {
	const { status, message } = REJECTIONS[reason];
	return reply(res, status, { error: reason, message });
}
