import { SIGNING_SECRET } from './auth.mts';
import { Scheduler } from './clock.mts';
import { createEvent, isEventType, sampleEventData } from './events.mts';
import { FaultRegistry } from './faults.mts';
import { IdSource, randomEventId } from './ids.mts';
import { mergeOptions } from './options.mts';
import type { PerformanceData, PerformanceSite } from './performanceModel.mts';
import { SlidingWindowLimiter } from './rateLimit.mts';
import { seedPerformance, seedSecurity } from './seed.mts';
import { newSecurityRecord } from './securityModel.mts';
import type { SecurityData, SecurityRecord, SecurityResource } from './securityModel.mts';
import type {
	ChatMessage,
	DeliveryRecord,
	EventType,
	Notice,
	RecordedRequest,
	ResolvedOptions,
	SandboxOptions,
	WebhookEvent,
} from './types.mts';
import { WebhookDispatcher } from './webhooks.mts';

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
	readonly notices: Notice[] = [];
	readonly chat: ChatMessage[] = [];
	readonly webhooks: WebhookDispatcher;
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
		this.webhooks = new WebhookDispatcher({
			scheduler: this.scheduler,
			firstBackoffMs: () => this.scheduler.scaled(this.options.webhookBackoffMs),
			defaultSecret: SIGNING_SECRET,
			deliveries: this.deliveries,
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
		this.webhooks.dispatch(event);
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

	addSecurityRecord(
		resource: SecurityResource,
		partial: Record<string, unknown> = {},
	): SecurityRecord {
		const record = newSecurityRecord(this.ids, resource, partial);
		this.sec[resource].push(record);
		return record;
	}

	/** Adds `count` records at once, dated a millisecond apart up to now. */
	addSecurityRecords(resource: SecurityResource, count: number): void {
		const now = Date.now();
		for (let index = 0; index < count; index++) {
			const date = new Date(now - count + 1 + index).toISOString();
			this.sec[resource].push(newSecurityRecord(this.ids, resource, {}, date));
		}
	}

	reset(): void {
		this.scheduler.clearAll();
		this.webhooks.reset();
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
	}
}
