import type {
	ChatMessage,
	DeliveryAttempt,
	DeliveryRecord,
	RecordedRequest,
	SecurityEvent,
	SecurityRing,
	WebhookEvent,
} from '../support/sandbox/index.mts';
import { e2e } from './context.mts';

async function control<T>(method: string, path: string, body?: unknown): Promise<T> {
	const response = await fetch(`${e2e().sandbox.controlUrl}${path}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	if (!response.ok)
		throw new Error(
			`Sandbox control ${method} ${path}: ${response.status} ${await response.text()}`,
		);
	return (await response.json()) as T;
}

export async function deliveries(): Promise<DeliveryRecord[]> {
	return (await control<{ deliveries: DeliveryRecord[] }>('GET', '/deliveries')).deliveries;
}

export async function chatMessages(): Promise<ChatMessage[]> {
	return (await control<{ messages: ChatMessage[] }>('GET', '/chat/messages')).messages;
}

export async function serviceRequests(): Promise<RecordedRequest[]> {
	return (await control<{ requests: RecordedRequest[] }>('GET', '/requests')).requests;
}

export async function emitEvent(
	type: string,
	data?: Record<string, unknown>,
): Promise<WebhookEvent> {
	return (await control<{ event: WebhookEvent }>('POST', '/emit', data ? { type, data } : { type }))
		.event;
}

export async function addThreat(
	partial: Record<string, unknown>,
): Promise<Record<string, unknown> & { id: string }> {
	return await control('POST', '/security/threats', partial);
}

/** The security service's webhook calls ("rings"), each attempt with the answer it got. */
export async function securityDeliveries(): Promise<DeliveryAttempt[]> {
	return (await control<{ deliveries: DeliveryAttempt[] }>('GET', '/security/deliveries'))
		.deliveries;
}

/** Makes the security service call its webhooks now, by default about a threat it adds. */
export async function ringSecurity(ring: SecurityRing = {}): Promise<SecurityEvent[]> {
	return (await control<{ events: SecurityEvent[] }>('POST', '/security/ring', ring)).events;
}

export async function removeSecurityEndpoint(endpointId: string): Promise<void> {
	await control('DELETE', `/security/webhooks/${endpointId}`);
}

/** Sets a performance site's status through the sandbox control. */
export async function setSiteStatus(siteId: string, status: string): Promise<void> {
	await control('POST', `/performance/sites/${siteId}/status`, { status });
}

/** Text of a chat message posted as `{ "text": ... }`. */
export function chatText(message: ChatMessage): string {
	const { body } = message;
	return body !== null && typeof body === 'object' && 'text' in body
		? String(body.text)
		: JSON.stringify(body);
}
