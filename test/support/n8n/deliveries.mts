import { randomUUID } from 'node:crypto';

import { signPayload } from '../sandbox/index.mts';

/** A webhook delivery as the service sends it: raw body and signature headers. */
export interface Delivery {
	eventId: string;
	body: string;
	headers: Record<string, string>;
}

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** Signs `body` as the service does on each attempt: a fresh timestamp and signature. */
export function signDelivery(
	secret: string,
	body: string,
	timestamp = nowSeconds(),
): Record<string, string> {
	const stamp = String(timestamp);
	return {
		'content-type': 'application/json',
		'x-service-webhook-timestamp': stamp,
		'x-service-webhook-signature': signPayload(secret, stamp, body),
	};
}

/** A signed `audit.completed` delivery with a fresh event id. */
export function signedDelivery(secret: string, timestamp = nowSeconds()): Delivery {
	const eventId = `evt_${randomUUID()}`;
	const body = JSON.stringify({
		id: eventId,
		type: 'audit.completed',
		createdAt: new Date().toISOString(),
		data: { siteId: 'site_1' },
	});
	return { eventId, body, headers: signDelivery(secret, body, timestamp) };
}

/** The delivery's signature over a body that was changed in transit. */
export function tampered(delivery: Delivery): Delivery {
	return { ...delivery, body: delivery.body.replace('site_1', 'site_2') };
}

export async function postDelivery(
	url: string,
	delivery: Pick<Delivery, 'body' | 'headers'>,
): Promise<{ status: number; text: string }> {
	const response = await fetch(url, {
		method: 'POST',
		headers: delivery.headers,
		body: delivery.body,
	});
	return { status: response.status, text: await response.text() };
}
