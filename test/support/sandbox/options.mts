import {
	REOPTIMIZATIONS_PER_HOUR,
	REQUESTS_PER_MINUTE,
	SECURITY_STANDARD_PER_MINUTE,
	SITE_CREATIONS_PER_MINUTE,
} from './serviceValues.mts';
import type { ResolvedOptions, SandboxOptions } from './types.mts';

export const DEFAULT_OPTIONS: ResolvedOptions = {
	port: 0,
	timeScale: 1,
	limits: {
		requestsPerMinute: REQUESTS_PER_MINUTE,
		reoptimizationsPerHour: REOPTIMIZATIONS_PER_HOUR,
		siteCreationsPerMinute: SITE_CREATIONS_PER_MINUTE,
		securityRequestsPerMinute: SECURITY_STANDARD_PER_MINUTE,
	},
	latencyMs: 0,
	resetFormat: 'epochSeconds',
	retryAfter: false,
	securityRateLimitHeaders: true,
	securityListShape: 'wrapped',
	securityListOrder: 'oldestFirst',
	securityErrorShape: 'nested',
	webhookBackoffMs: 1000,
	queueDelayMs: 2000,
	quiet: false,
	newIdsFromClock: false,
};

const CHOICES = {
	resetFormat: ['epochSeconds', 'epochMillis', 'secondsUntilReset'],
	securityListShape: [
		'bare',
		'wrapped',
		'data',
		'paginated',
		'pageNumbers',
		'nextLinks',
		'cursors',
	],
	securityListOrder: ['oldestFirst', 'newestFirst'],
	securityErrorShape: ['nested', 'flat', 'string', 'message', 'text'],
} as const;

function requireNonNegative(name: string, value: number, allowZero = true): void {
	if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
		throw new Error(`Option ${name} must be a ${allowZero ? 'non-negative' : 'positive'} number`);
	}
}

/** Merges `partial` over `base` (limits merge field by field) and rejects values the sandbox cannot honour. */
export function mergeOptions(base: ResolvedOptions, partial: SandboxOptions = {}): ResolvedOptions {
	const defined = Object.fromEntries(
		Object.entries(partial).filter(([, value]) => value !== undefined),
	) as SandboxOptions;
	const merged: ResolvedOptions = {
		...base,
		...defined,
		limits: { ...base.limits, ...defined.limits },
	};
	requireNonNegative('timeScale', merged.timeScale, false);
	requireNonNegative('latencyMs', merged.latencyMs);
	requireNonNegative('webhookBackoffMs', merged.webhookBackoffMs);
	requireNonNegative('queueDelayMs', merged.queueDelayMs);
	for (const [name, value] of Object.entries(merged.limits)) {
		if (!Number.isInteger(value) || value < 0)
			throw new Error(`Limit ${name} must be a non-negative integer`);
	}
	for (const key of Object.keys(CHOICES) as Array<keyof typeof CHOICES>) {
		const allowed: readonly string[] = CHOICES[key];
		if (!allowed.includes(merged[key])) {
			throw new Error(`Option ${key} must be one of ${allowed.join(', ')}`);
		}
	}
	return merged;
}
