import { signPayload } from '../sandbox/index.mts';

/** Signs like the service (and the sandbox), independently of the nodes' verifier. */
export const sign = signPayload;

export function epochSeconds(offsetSeconds = 0): string {
	return String(Math.floor(Date.now() / 1000) + offsetSeconds);
}

export function epochMillis(offsetSeconds = 0): string {
	return String(Date.now() + offsetSeconds * 1000);
}

let eventCounter = 0;

/** A delivery body shaped like the service's: `{id, type, createdAt, data}`. */
export function eventBody(type: string, data: Record<string, unknown> = {}): string {
	eventCounter += 1;
	const id = `evt_${eventCounter.toString(16).padStart(24, '0')}`;
	return JSON.stringify({ id, type, createdAt: new Date().toISOString(), data });
}

export interface Delivery {
	body: string | Uint8Array;
	secret?: string;
	/** Header value; defaults to now in epoch seconds. `null` leaves the header out. */
	timestamp?: string | null;
	/** Header value; defaults to the correct signature. `null` leaves the header out. */
	signature?: string | null;
	contentType?: string;
}

export interface DeliveryAnswer {
	status: number;
	body: Record<string, unknown>;
}

/** POSTs one delivery with the service's headers and returns the status and JSON answer. */
export async function postDelivery(url: string, delivery: Delivery): Promise<DeliveryAnswer> {
	const timestamp = delivery.timestamp === undefined ? epochSeconds() : delivery.timestamp;
	const signature =
		delivery.signature === undefined
			? sign(delivery.secret ?? '', timestamp ?? '', delivery.body)
			: delivery.signature;
	const headers: Record<string, string> = {
		'content-type': delivery.contentType ?? 'application/json',
	};
	if (timestamp !== null) headers['x-service-webhook-timestamp'] = timestamp;
	if (signature !== null) headers['x-service-webhook-signature'] = signature;
	const body = typeof delivery.body === 'string' ? delivery.body : new Uint8Array(delivery.body);
	const response = await fetch(url, { method: 'POST', headers, body });
	const text = await response.text();
	return {
		status: response.status,
		body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
	};
}
