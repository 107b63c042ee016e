import { NEAR_RESET_MS, waitForResetMs, type RateLimitInfo } from './rateLimitHeaders';
import type { FailureDescription, ServiceProfile, ServiceRequest } from './serviceTypes';

/** What a rate-limited request says: the service's 429, or a request the credential's pace held back. */

export function describeResetTime(rateLimit: RateLimitInfo, now: number = Date.now()): string {
	const resetMs = rateLimit.resetAt?.getTime();
	if (resetMs === undefined || !Number.isFinite(resetMs))
		return 'The service did not say when the limit resets; try again later.';
	const seconds = Math.max(0, Math.ceil((resetMs - now) / 1000));
	const at = `${new Date(resetMs).toISOString()} (in ${seconds} s)`;
	if (rateLimit.outOfRange === undefined) return `The limit resets at ${at}.`;
	return `The service's ${rateLimit.outOfRange} is not a time its limits can reset at, so the node took the limit to reset a minute after the answer, at ${at}.`;
}

/** A wait longer than the node accepts, and what the node did instead of waiting. */
function tooLongToWait(instead: string): string {
	return `That is more than ${Math.round(NEAR_RESET_MS / 1000)} s away, too long to wait for, so the node ${instead}.`;
}

/** A rate-limit failure: its description is `parts`, then the limits that apply and the advice. */
function rateLimitFailure(
	message: string,
	parts: string[],
	profile: ServiceProfile,
	request: ServiceRequest,
): FailureDescription {
	const limitsText = request.rateLimitsText ?? profile.rateLimitsText;
	const limits = limitsText ? [`Limits that apply here: ${limitsText}.`] : [];
	return {
		httpCode: '429',
		message,
		description: [
			...parts,
			...limits,
			'Run the workflow less often, or spread the items over time.',
		].join(' '),
	};
}

/**
 * A 429 the service answered: what the limit is, when it resets and what the node did about it
 * (`retries`: how often it waited for a reset and retried; undefined: unknown).
 */
export function describeRateLimit(
	profile: ServiceProfile,
	code: string,
	said: string,
	rateLimit: RateLimitInfo,
	request: ServiceRequest,
	retries: number | undefined,
	now: number,
): FailureDescription {
	const size = rateLimit.limit === undefined ? '' : ` of ${rateLimit.limit} requests`;
	const which = said || `: the ${profile.serviceName} limit${size} is used up`;
	const resetMs = rateLimit.resetAt?.getTime();
	const resets =
		resetMs !== undefined && Number.isFinite(resetMs)
			? ` (resets at ${new Date(resetMs).toISOString()})`
			: '';
	const parts = [describeResetTime(rateLimit, now)];
	if (retries !== undefined && retries > 0) {
		parts.push(
			`The node waited for the reset ${retries} time(s) and retried, but the limit was still reached.`,
		);
	} else if (retries === 0 && rateLimit.resetAt && waitForResetMs(rateLimit, now) === undefined) {
		parts.push(tooLongToWait('did not retry'));
	}
	return rateLimitFailure(`Rate limit reached [${code}]${which}${resets}`, parts, profile, request);
}

/** A request the credential's pace held back, because its window frees later than the node waits: nothing was sent. */
export function describeHeldBack(
	profile: ServiceProfile,
	heldUntil: Date,
	request: ServiceRequest,
	now: number = Date.now(),
): FailureDescription {
	return rateLimitFailure(
		`Rate limit reached [rate_limited]: the ${profile.serviceName} limit of this credential is used up (resets at ${heldUntil.toISOString()})`,
		[describeResetTime({ resetAt: heldUntil }, now), tooLongToWait('did not send the request')],
		profile,
		request,
	);
}
