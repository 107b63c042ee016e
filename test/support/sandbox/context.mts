import { Scheduler } from './clock.mts';
import { createEvent, isEventType, sampleEventData } from './events.mts';
import { FaultRegistry } from './faults.mts';
import { IdSource, randomEventId } from './ids.mts';
import { mergeOptions } from './options.mts';
import type { PerformanceData, PerformanceSite } from './performanceModel.mts';
import { SlidingWindowLimiter } from './rateLimit.mts';
import { seedPerformance, seedSecurity } from './seed.mts';
import {
	createSecurityEvent,
	eventOfNewRecord,
	fieldsOfRecordFor,
	SECURITY_EVENT_RESOURCES,
	SECURITY_WEBHOOKS,
} from './securityEvents.mts';
import type { SecurityEvent, SecurityEventType, SecurityRing } from './securityEvents.mts';
import { newSecurityRecord } from './securityModel.mts';
import type { SecurityData, SecurityRecord, SecurityResource } from './securityModel.mts';
import type {
	ChatMessage,
	DeliveryAttempt,
	DeliveryRecord,
	EventType,
	Notice,
	RecordedRequest,
	ResolvedOptions,
	SandboxOptions,
	WebhookEvent,
	WebhookSignature,
} from './types.mts';
import { PERFORMANCE_WEBHOOKS, WebhookDispatcher } from './webhooks.mts';
import type { WebhookService } from './webhooks.mts';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;

/** All mutable state of one sandbox; routes and the control API work on it. */
export class SandboxContext {
	readonly initialOptions: ResolvedOptions;
	options: ResolvedOptions;
	/** Timers of simulated work (queues, retries, alerts): cleared by reset() and stop(). */
	readonly scheduler: Scheduler;
	/** Delays of requests in flight (latency, slow faults): cleared only by stop(). */
	readonly delays: Scheduler;
	readonly limiters = {
		requests: new SlidingWindowLimiter(),
		reoptimizations: new SlidingWindowLimiter(),
		siteCreations: new SlidingWindowLimiter(),
		security: new SlidingWindowLimiter(),
	};
	readonly faults = new FaultRegistry();
	readonly requests: RecordedRequest[] = [];
	readonly deliveries: DeliveryRecord[] = [];
	readonly securityDeliveries: DeliveryAttempt[] = [];
	readonly notices: Notice[] = [];
	readonly chat: ChatMessage[] = [];
	/** The performance service's webhooks. */
	readonly webhooks: WebhookDispatcher<WebhookSignature>;
	readonly securityWebhooks: WebhookDispatcher<object>;
	ids = new IdSource();
	perf: PerformanceData;
	sec: SecurityData;
	origin = '';

	constructor(options: ResolvedOptions) {
		this.initialOptions = options;
		this.options = options;
		this.scheduler = new Scheduler(() => this.options.timeScale);
		this.delays = new Scheduler(() => this.options.timeScale);
		this.perf = seedPerformance(this.ids);
		this.sec = seedSecurity(this.ids);
		if (this.options.newIdsFromClock) this.ids.raiseTo(Math.floor(Date.now() / 1000));
		this.webhooks = this.#dispatcher(PERFORMANCE_WEBHOOKS, this.deliveries);
		this.securityWebhooks = this.#dispatcher(SECURITY_WEBHOOKS, this.securityDeliveries);
	}

	#dispatcher<Recorded extends object>(
		service: WebhookService<Recorded>,
		deliveries: Array<DeliveryAttempt & Recorded>,
	): WebhookDispatcher<Recorded> {
		return new WebhookDispatcher({
			service,
			scheduler: this.scheduler,
			firstBackoffMs: () => this.scheduler.scaled(this.options.webhookBackoffMs),
			deliveries,
			notices: this.notices,
			log: (line) => this.log(line),
		});
	}

	log(line: string): void {
		if (!this.options.quiet) console.log(`[sandbox] ${line}`);
	}

	setOptions(partial: SandboxOptions): void {
		this.options = mergeOptions(this.options, partial);
	}

	/** Sends an event to the webhook endpoints; with `site`, also lists it among that site's events. */
	publish(
		type: EventType,
		data: Record<string, unknown>,
		site?: PerformanceSite,
		message?: string,
	): WebhookEvent {
		const event = createEvent(type, data);
		if (site)
			site.events.unshift({
				id: event.id,
				type,
				message: message ?? type,
				createdAt: event.createdAt,
			});
		this.webhooks.dispatch(event.id, type, event);
		return event;
	}

	/** Site events that are not webhook events (updates, queued work). */
	noteSiteEvent(site: PerformanceSite, type: string, message: string): void {
		site.events.unshift({
			id: randomEventId(),
			type,
			message,
			createdAt: new Date().toISOString(),
		});
	}

	emit(type: string, data?: Record<string, unknown>): WebhookEvent {
		if (!isEventType(type)) throw new Error(`Unknown event type ${type}`);
		return this.publish(type, data ?? sampleEventData(type, this.perf));
	}

	/** Sends a security event to the security webhook endpoints. */
	publishSecurity(type: SecurityEventType, record: SecurityRecord | undefined): SecurityEvent {
		const event = createSecurityEvent(type, record);
		this.securityWebhooks.dispatch(event.id, type, event);
		return event;
	}

	/**
	 * Sends `count` events of `type` at once, each about a record it adds to the event's list or,
	 * without `newRecords`, all about the newest record already there.
	 */
	ringSecurity({
		count = 1,
		event: type = 'threat.detected',
		newRecords = true,
	}: SecurityRing = {}): SecurityEvent[] {
		const resource = SECURITY_EVENT_RESOURCES[type];
		const newest = this.sec[resource].at(-1);
		const about = newRecords
			? this.#createSecurityRecords(resource, count, fieldsOfRecordFor(type))
			: Array.from({ length: count }, () => newest);
		return about.map((record) => this.publishSecurity(type, record));
	}

	/** Adds a record, announced to the security webhook endpoints as it appears. */
	addSecurityRecord(
		resource: SecurityResource,
		partial: Record<string, unknown> = {},
	): SecurityRecord {
		return this.addSecurityRecords(resource, 1, partial)[0];
	}

	/** Adds `count` records at once, dated a millisecond apart up to now, each announced. */
	addSecurityRecords(
		resource: SecurityResource,
		count: number,
		partial: Record<string, unknown> = {},
	): SecurityRecord[] {
		const records = this.#createSecurityRecords(resource, count, partial);
		for (const record of records) {
			const type = eventOfNewRecord(resource, record);
			if (type) this.publishSecurity(type, record);
		}
		return records;
	}

	#createSecurityRecords(
		resource: SecurityResource,
		count: number,
		partial: Record<string, unknown>,
	): SecurityRecord[] {
		const now = Date.now();
		return Array.from({ length: count }, (_, index) => {
			const date = new Date(now - count + 1 + index).toISOString();
			const record = newSecurityRecord(this.ids, resource, partial, date);
			this.sec[resource].push(record);
			return record;
		});
	}

	reset(): void {
		this.scheduler.clearAll();
		this.webhooks.reset();
		this.securityWebhooks.reset();
		for (const limiter of Object.values(this.limiters)) limiter.clear();
		this.faults.clear();
		this.requests.length = 0;
		this.chat.length = 0;
		this.options = this.initialOptions;
		this.ids = new IdSource();
		this.perf = seedPerformance(this.ids);
		this.sec = seedSecurity(this.ids);
		if (this.options.newIdsFromClock) this.ids.raiseTo(Math.floor(Date.now() / 1000));
	}

	stop(): void {
		this.scheduler.clearAll();
		this.delays.clearAll();
		this.webhooks.close();
		this.securityWebhooks.close();
	}
}
