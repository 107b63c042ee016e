import type { AddressInfo } from 'node:net';
import { DEMO_TOKENS, SECURITY_KEY, SIGNING_SECRET } from './auth.mts';
import { SandboxContext } from './context.mts';
import { DEFAULT_OPTIONS, mergeOptions } from './options.mts';
import { MOUNTS } from './mounts.mts';
import { addSite, findSite, setSiteStatus } from './performanceRoutes.mts';
import type { SiteStatus } from './performanceModel.mts';
import type { SecurityEvent, SecurityRing } from './securityEvents.mts';
import { createSandboxServer } from './server.mts';
import type {
	DeliveryAttempt,
	DeliveryRecord,
	FaultRoute,
	RecordedRequest,
	SandboxOptions,
	WebhookEndpointState,
	WebhookEvent,
} from './types.mts';

export type { SecurityEvent, SecurityEventType, SecurityRing } from './securityEvents.mts';
export type {
	ChatMessage,
	DeliveryAttempt,
	DeliveryRecord,
	EventType,
	FaultKind,
	FaultRoute,
	Notice,
	RateLimits,
	RecordedRequest,
	ResetFormat,
	SandboxOptions,
	SecurityErrorShape,
	SecurityListOrder,
	SecurityListShape,
	WebhookEndpointState,
	WebhookEvent,
} from './types.mts';
export { signPayload } from './webhooks.mts';

export interface Sandbox {
	port: number;
	origin: string;
	performanceUrl: string;
	securityUrl: string;
	controlUrl: string;
	tokens: { readOnly: string; readWrite: string; sitesWrite: string; noScopes: string };
	securityKey: string;
	signingSecret: string;
	/** Live arrays: cleared in place by reset(). */
	requests: RecordedRequest[];
	deliveries: DeliveryRecord[];
	setFault(route: FaultRoute): void;
	addWebhookEndpoint(url: string, opts?: { secret?: string; events?: string[] }): string;
	endpoints(): WebhookEndpointState[];
	emit(eventType: string, data?: Record<string, unknown>): WebhookEvent;
	waitForDeliveries(
		predicate: (deliveries: DeliveryRecord[]) => boolean,
		timeoutMs?: number,
	): Promise<DeliveryRecord[]>;
	/** Security webhook attempts (unsigned), a live array like `deliveries`. */
	securityDeliveries: DeliveryAttempt[];
	addSecurityWebhookEndpoint(url: string, opts?: { events?: string[] }): string;
	/** As `POST /_control/security/ring`: `count` (1) events at once, by default each about a new threat. */
	ringSecurity(ring?: SecurityRing): SecurityEvent[];
	waitForSecurityDeliveries(
		predicate: (deliveries: DeliveryAttempt[]) => boolean,
		timeoutMs?: number,
	): Promise<DeliveryAttempt[]>;
	/** addThreat(s), addScan, addUpdate and addReport also announce each record to the security endpoints. */
	addThreat(partial?: Record<string, unknown>): Record<string, unknown>;
	/** Adds `count` threats at once (a long list in no time), dated a millisecond apart up to now. */
	addThreats(count: number): void;
	addScan(partial?: Record<string, unknown>): Record<string, unknown>;
	addUpdate(partial?: Record<string, unknown>): Record<string, unknown>;
	addReport(partial?: Record<string, unknown>): Record<string, unknown>;
	/** Adds a performance site without audits (announced as site.added). */
	addSite(status: SiteStatus): { id: string; name: string; hostname: string };
	/** Sets a performance site's status, as the service's health checks would (the control does the same). */
	setSiteStatus(siteId: string, status: SiteStatus): void;
	setOptions(partial: Partial<SandboxOptions>): void;
	reset(): void;
	close(): Promise<void>;
}

/** The n8n credentials that point at a sandbox, per credential type (performance: the read-write token). */
export function sandboxCredentials(sandbox: Sandbox): Record<string, Record<string, string>> {
	return {
		performanceServiceApi: {
			baseUrl: sandbox.performanceUrl,
			apiToken: sandbox.tokens.readWrite,
			webhookSigningSecret: sandbox.signingSecret,
		},
		securityServiceApi: { baseUrl: sandbox.securityUrl, apiKey: sandbox.securityKey },
	};
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const resolved = mergeOptions(DEFAULT_OPTIONS, options);
	const ctx = new SandboxContext(resolved);
	const server = createSandboxServer(ctx);
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(resolved.port, '127.0.0.1', () => {
			server.off('error', reject);
			resolve();
		});
	});
	const { port } = server.address() as AddressInfo;
	const origin = `http://127.0.0.1:${port}`;
	ctx.origin = origin;

	let closing: Promise<void> | undefined;
	return {
		port,
		origin,
		performanceUrl: origin + MOUNTS.performance,
		securityUrl: origin + MOUNTS.security,
		controlUrl: origin + MOUNTS.control,
		tokens: { ...DEMO_TOKENS },
		securityKey: SECURITY_KEY,
		signingSecret: SIGNING_SECRET,
		requests: ctx.requests,
		deliveries: ctx.deliveries,
		setFault: (route) => {
			ctx.faults.add(route);
		},
		addWebhookEndpoint: (url, opts) => ctx.webhooks.add(url, opts),
		endpoints: () => ctx.webhooks.states(),
		emit: (eventType, data) => ctx.emit(eventType, data),
		waitForDeliveries: (predicate, timeoutMs) => ctx.webhooks.waitFor(predicate, timeoutMs),
		securityDeliveries: ctx.securityDeliveries,
		addSecurityWebhookEndpoint: (url, opts) => ctx.securityWebhooks.add(url, opts),
		ringSecurity: (ring) => ctx.ringSecurity(ring),
		waitForSecurityDeliveries: (predicate, timeoutMs) =>
			ctx.securityWebhooks.waitFor(predicate, timeoutMs),
		addThreat: (partial) => ctx.addSecurityRecord('threats', partial),
		addThreats: (count) => ctx.addSecurityRecords('threats', count),
		addScan: (partial) => ctx.addSecurityRecord('scans', partial),
		addUpdate: (partial) => ctx.addSecurityRecord('updates', partial),
		addReport: (partial) => ctx.addSecurityRecord('reports', partial),
		addSite: (status) => {
			const { id, name, hostname } = addSite(ctx, { status });
			return { id, name, hostname };
		},
		setSiteStatus: (siteId, status) => {
			const site = findSite(ctx, siteId);
			if (!site) throw new Error(`No site ${siteId} in the sandbox`);
			setSiteStatus(ctx, site, status);
		},
		setOptions: (partial) => ctx.setOptions(partial),
		reset: () => ctx.reset(),
		close: () => {
			closing ??= new Promise<void>((resolve) => {
				ctx.stop();
				server.close(() => resolve());
				server.closeAllConnections();
			});
			return closing;
		},
	};
}
