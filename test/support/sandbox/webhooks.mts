import { createHmac } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { request as httpRequest } from 'node:http';
import type { ClientRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { SIGNING_SECRET } from './auth.mts';
import type { Scheduler } from './clock.mts';
import { IdSource } from './ids.mts';
import { PERFORMANCE_EVENT_TYPES } from './serviceValues.mts';
import type { DeliveryAttempt, Notice, WebhookEndpointState, WebhookSignature } from './types.mts';

export const MAX_ATTEMPTS = 5;
export const PAUSE_AFTER_FAILURES = 30;
const DELIVERY_TIMEOUT_MS = 5000;
const DEFAULT_WAIT_MS = 5000;

interface Endpoint extends WebhookEndpointState {
	secret?: string;
}

/**
 * What sets one service's webhooks apart; `Recorded` is what each attempt's record keeps of the
 * headers that authenticate it.
 */
export interface WebhookService<Recorded extends object> {
	/** Endpoint ids are `${idPrefix}_N`. */
	idPrefix: string;
	userAgent: string;
	eventTypes: readonly string[];
	authenticate(
		secret: string | undefined,
		body: string,
	): { headers: Record<string, string>; recorded: Recorded };
}

export interface WebhookDeps<Recorded extends object> {
	service: WebhookService<Recorded>;
	scheduler: Scheduler;
	/** First retry delay in real milliseconds (already scaled). */
	firstBackoffMs: () => number;
	deliveries: Array<DeliveryAttempt & Recorded>;
	notices: Notice[];
	log: (line: string) => void;
}

interface Event {
	id: string;
	type: string;
	body: string;
}

/**
 * The service's signature: lower-case hex HMAC-SHA256 over `${timestamp}.` and the raw body
 * bytes (UTF-8 for a string). Written independently of the nodes' verifier, which tests check with it.
 */
export function signPayload(
	secret: string,
	timestamp: string,
	rawBody: string | Uint8Array,
): string {
	return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/** The performance service signs each attempt afresh, with the endpoint's secret or the demo one. */
export const PERFORMANCE_WEBHOOKS: WebhookService<WebhookSignature> = {
	idPrefix: 'whe',
	userAgent: 'performance-service-webhooks/1.0 (sandbox)',
	eventTypes: PERFORMANCE_EVENT_TYPES,
	authenticate: (secret = SIGNING_SECRET, body) => {
		const timestamp = String(Math.floor(Date.now() / 1000));
		const signature = signPayload(secret, timestamp, body);
		return {
			headers: {
				'x-service-webhook-timestamp': timestamp,
				'x-service-webhook-signature': signature,
			},
			recorded: { timestamp, signature },
		};
	},
};

function publicState(endpoint: Endpoint): WebhookEndpointState {
	const { id, url, events, consecutiveFailures, paused, pausedAt, createdAt } = endpoint;
	return {
		id,
		url,
		events: events && [...events],
		consecutiveFailures,
		paused,
		pausedAt,
		createdAt,
	};
}

/** Delivers one service's events to its endpoints, with retries, backoff and pausing. */
export class WebhookDispatcher<Recorded extends object> {
	#deps: WebhookDeps<Recorded>;
	#ids = new IdSource();
	#endpoints = new Map<string, Endpoint>();
	#inflight = new Set<ClientRequest>();
	#generation = 0;
	#changes = new EventEmitter().setMaxListeners(0);
	#abortWaiters = new Set<(reason: Error) => void>();

	constructor(deps: WebhookDeps<Recorded>) {
		this.#deps = deps;
	}

	add(url: string, opts: { secret?: string; events?: string[] } = {}): string {
		const parsed = new URL(url);
		if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
			throw new Error('Webhook url must be http or https');
		const { service } = this.#deps;
		const unknown = (opts.events ?? []).filter((type) => !service.eventTypes.includes(type));
		if (unknown.length > 0) throw new Error(`Unknown event types: ${unknown.join(', ')}`);
		const id = this.#ids.next(service.idPrefix);
		this.#endpoints.set(id, {
			id,
			url,
			events: opts.events ? [...opts.events] : null,
			consecutiveFailures: 0,
			paused: false,
			pausedAt: null,
			createdAt: new Date().toISOString(),
			secret: opts.secret,
		});
		return id;
	}

	remove(id: string): boolean {
		return this.#endpoints.delete(id);
	}

	resume(id: string): WebhookEndpointState | undefined {
		const endpoint = this.#endpoints.get(id);
		if (!endpoint) return undefined;
		endpoint.paused = false;
		endpoint.pausedAt = null;
		endpoint.consecutiveFailures = 0;
		return publicState(endpoint);
	}

	/** Every attempt so far (a live array). */
	get deliveries(): ReadonlyArray<DeliveryAttempt & Recorded> {
		return this.#deps.deliveries;
	}

	states(): WebhookEndpointState[] {
		return [...this.#endpoints.values()].map(publicState);
	}

	/** Sends `payload` (the same body on every attempt) to each endpoint that takes `type`. */
	dispatch(id: string, type: string, payload: unknown): void {
		const event: Event = { id, type, body: JSON.stringify(payload) };
		for (const endpoint of this.#endpoints.values()) {
			if (!endpoint.paused && (endpoint.events === null || endpoint.events.includes(type))) {
				this.#attempt(endpoint, event, 1);
			}
		}
	}

	waitFor(
		predicate: (deliveries: Array<DeliveryAttempt & Recorded>) => boolean,
		timeoutMs = DEFAULT_WAIT_MS,
	): Promise<Array<DeliveryAttempt & Recorded>> {
		const { deliveries } = this.#deps;
		return new Promise((resolve, reject) => {
			const finish = (): void => {
				clearTimeout(timer);
				this.#changes.off('delivery', check);
				this.#abortWaiters.delete(abort);
			};
			const abort = (reason: Error): void => {
				finish();
				reject(reason);
			};
			const check = (): void => {
				try {
					if (predicate(deliveries)) {
						finish();
						resolve([...deliveries]);
					}
				} catch (error) {
					abort(error instanceof Error ? error : new Error(String(error)));
				}
			};
			const timer = setTimeout(
				() =>
					abort(
						new Error(
							`Timed out after ${timeoutMs} ms waiting for deliveries (${deliveries.length} recorded)`,
						),
					),
				timeoutMs,
			);
			this.#changes.on('delivery', check);
			this.#abortWaiters.add(abort);
			check();
		});
	}

	/** Forgets endpoints, deliveries and notices; answers of requests still in flight are ignored. */
	reset(): void {
		this.#generation += 1;
		for (const request of this.#inflight) request.destroy();
		this.#inflight.clear();
		this.#endpoints.clear();
		this.#ids = new IdSource();
		this.#deps.deliveries.length = 0;
		this.#deps.notices.length = 0;
	}

	close(): void {
		this.reset();
		for (const abort of [...this.#abortWaiters]) abort(new Error('Sandbox closed'));
	}

	#attempt(endpoint: Endpoint, event: Event, attempt: number): void {
		if (endpoint.paused || this.#endpoints.get(endpoint.id) !== endpoint) return;
		const generation = this.#generation;
		const at = Date.now();
		const { body } = event;
		const { headers, recorded } = this.#deps.service.authenticate(endpoint.secret, body);
		void this.#post(endpoint.url, body, {
			'content-type': 'application/json',
			'content-length': String(Buffer.byteLength(body)),
			'user-agent': this.#deps.service.userAgent,
			...headers,
		}).then(({ status, error }) => {
			if (generation !== this.#generation) return;
			const record = {
				endpointId: endpoint.id,
				url: endpoint.url,
				eventId: event.id,
				type: event.type,
				attempt,
				...recorded,
				body,
				status,
				at,
				...(error === undefined ? {} : { error }),
			};
			this.#deps.deliveries.push(record);
			this.#deps.log(
				`webhook ${event.type} ${event.id} -> ${endpoint.url} attempt ${attempt}: ${status || error}`,
			);
			this.#settle(endpoint, event, attempt, status >= 200 && status < 300);
			this.#changes.emit('delivery');
		});
	}

	#settle(endpoint: Endpoint, event: Event, attempt: number, succeeded: boolean): void {
		if (succeeded) {
			endpoint.consecutiveFailures = 0;
			return;
		}
		endpoint.consecutiveFailures += 1;
		if (!endpoint.paused && endpoint.consecutiveFailures >= PAUSE_AFTER_FAILURES) {
			endpoint.paused = true;
			endpoint.pausedAt = new Date().toISOString();
			this.#deps.notices.push({
				type: 'endpoint.paused',
				endpointId: endpoint.id,
				url: endpoint.url,
				message: `E-mail notice: webhook endpoint ${endpoint.url} was paused after ${endpoint.consecutiveFailures} consecutive failed deliveries`,
				at: endpoint.pausedAt,
			});
			this.#deps.log(`webhook endpoint ${endpoint.id} paused`);
		}
		if (attempt < MAX_ATTEMPTS && !endpoint.paused) {
			const delay = this.#deps.firstBackoffMs() * 2 ** (attempt - 1);
			this.#deps.scheduler.after(delay, () => this.#attempt(endpoint, event, attempt + 1));
		}
	}

	#post(
		url: string,
		body: string,
		headers: Record<string, string>,
	): Promise<{ status: number; error?: string }> {
		return new Promise((resolve) => {
			const send = url.startsWith('https:') ? httpsRequest : httpRequest;
			const request = send(
				url,
				{ method: 'POST', headers, timeout: DELIVERY_TIMEOUT_MS, agent: false },
				(response) => {
					response.resume();
					resolve({ status: response.statusCode ?? 0 });
				},
			);
			this.#inflight.add(request);
			request.on('close', () => this.#inflight.delete(request));
			request.on('timeout', () =>
				request.destroy(new Error(`No answer within ${DELIVERY_TIMEOUT_MS} ms`)),
			);
			request.on('error', (error) => resolve({ status: 0, error: error.message }));
			request.end(body);
		});
	}
}
