import type { EventType } from './serviceValues.mts';

export type ServiceName = 'performance' | 'security';
export type ResetFormat = 'epochSeconds' | 'epochMillis' | 'secondsUntilReset';
/**
 * `paginated`: page numbers, a `next` link and a Link header; `pageNumbers`, `nextLinks` and
 * `cursors`: only that one pagination hint.
 */
export type SecurityListShape =
	| 'bare'
	| 'wrapped'
	| 'data'
	| 'paginated'
	| 'pageNumbers'
	| 'nextLinks'
	| 'cursors';
export type SecurityListOrder = 'oldestFirst' | 'newestFirst';
export type SecurityErrorShape = 'nested' | 'flat' | 'string' | 'message' | 'text';

export interface RateLimits {
	requestsPerMinute: number;
	reoptimizationsPerHour: number;
	siteCreationsPerMinute: number;
	securityRequestsPerMinute: number;
}

export interface SandboxOptions {
	port?: number;
	timeScale?: number;
	limits?: Partial<RateLimits>;
	latencyMs?: number;
	resetFormat?: ResetFormat;
	retryAfter?: boolean;
	/** Send X-RateLimit-* on security responses (the real service sends none). */
	securityRateLimitHeaders?: boolean;
	securityListShape?: SecurityListShape;
	/** Lists in creation order (default) or the newest record first. */
	securityListOrder?: SecurityListOrder;
	securityErrorShape?: SecurityErrorShape;
	webhookBackoffMs?: number;
	queueDelayMs?: number;
	quiet?: boolean;
	/**
	 * Records created after the seed get ids numbered from the clock (`thr_1763900000`), never one
	 * an earlier run handed out: for an n8n whose pollers remember ids across sandbox restarts (npm start).
	 */
	newIdsFromClock?: boolean;
}

export interface ResolvedOptions {
	port: number;
	timeScale: number;
	limits: RateLimits;
	latencyMs: number;
	resetFormat: ResetFormat;
	retryAfter: boolean;
	securityRateLimitHeaders: boolean;
	securityListShape: SecurityListShape;
	securityListOrder: SecurityListOrder;
	securityErrorShape: SecurityErrorShape;
	webhookBackoffMs: number;
	queueDelayMs: number;
	quiet: boolean;
	newIdsFromClock: boolean;
}

export interface RecordedRequest {
	service: ServiceName;
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string>;
	body: string;
	at: number;
	/** The status the sandbox answered with; absent while pending, 0 for a dropped connection. */
	status?: number;
}

export type { EventType };

export interface WebhookEvent {
	id: string;
	type: EventType;
	createdAt: string;
	data: Record<string, unknown>;
}

export interface DeliveryRecord {
	endpointId: string;
	url: string;
	eventId: string;
	type: string;
	attempt: number;
	/** Value of X-Service-Webhook-Timestamp (epoch seconds as digits). */
	timestamp: string;
	signature: string;
	body: string;
	/** HTTP status of the receiver, 0 for a connection error or timeout. */
	status: number;
	at: number;
	error?: string;
}

export interface WebhookEndpointState {
	id: string;
	url: string;
	events: string[] | null;
	consecutiveFailures: number;
	paused: boolean;
	pausedAt: string | null;
	createdAt: string;
}

export type FaultKind = 'status500' | 'status503' | 'malformedJson' | 'slow' | 'drop' | 'nonJson';

export interface FaultRoute {
	service: ServiceName;
	method?: string;
	/** Exact path below the service base, or a prefix ending in '*'. */
	path: string;
	kind: FaultKind;
	times?: number;
	delayMs?: number;
}

export interface Notice {
	type: 'endpoint.paused';
	endpointId: string;
	url: string;
	message: string;
	at: string;
}

export interface ChatMessage {
	receivedAt: string;
	body: unknown;
}
