import { createHash } from 'node:crypto';

import { RequestPacer, type PlanRate } from './requestPacer';

/** Which credential a pace belongs to. The secret only goes into a SHA-256 hash. */
export interface PacedCredential {
	credentialType: string;
	/** The trimmed base URL. */
	baseUrl: string;
	/** The token or key the requests are sent with. */
	secret: string;
	/** A fixed rate to keep to while the service sends no rate-limit headers. */
	plan?: PlanRate;
}

/**
 * The length of a plan's minute in milliseconds: 60,000. Only a simulation of the service that
 * runs its clock faster (the test sandbox's time scale) sets another value.
 */
export const planClock = { minuteMs: 60_000 };

/** A plan of so many requests per minute; `undefined` (unlimited) is no plan to keep to. */
export function perMinute(requests: number | undefined): PlanRate | undefined {
	return requests === undefined ? undefined : { requests, windowMs: planClock.minuteMs };
}

/** Type, base URL and a SHA-256 hash of the secret: the same credential saved twice shares one pace. */
export function pacingKey(credential: Omit<PacedCredential, 'plan'>): string {
	const secretHash = createHash('sha256').update(credential.secret).digest('hex');
	return `${credential.credentialType} ${credential.baseUrl} ${secretHash}`;
}

const pacers = new Map<string, RequestPacer>();

/** The one pacer of a credential in this process, shared by every node, item and execution. */
export function pacerFor(credential: PacedCredential): RequestPacer {
	const key = pacingKey(credential);
	let pacer = pacers.get(key);
	if (!pacer) {
		pacer = new RequestPacer(credential.plan);
		pacers.set(key, pacer);
	} else {
		pacer.setPlan(credential.plan);
	}
	return pacer;
}

/** Forgets what every pacer learned (for a simulated service whose state was reset). */
export function forgetPacers(): void {
	pacers.clear();
}
