import { createHash } from 'node:crypto';

import { readCredentials, trimBaseUrl } from '../http/baseUrl';
import type { ServiceContext, ServiceProfile } from '../http/serviceTypes';
import { RequestPacer } from './requestPacer';

/** Which credential a pace belongs to. The secret only goes into a SHA-256 hash. */
interface PacedCredential {
	credentialType: string;
	/** The trimmed base URL. */
	baseUrl: string;
	/** The token or key the requests are sent with. */
	secret: string;
}

/** Type, base URL and a SHA-256 hash of the secret: the same credential saved twice shares one pace. */
export function pacingKey(credential: PacedCredential): string {
	const secretHash = createHash('sha256').update(credential.secret).digest('hex');
	return `${credential.credentialType} ${credential.baseUrl} ${secretHash}`;
}

/** The pacers of this process by `pacingKey`, shared by every node, item and execution. */
export const processPacers = new Map<string, RequestPacer>();

/**
 * The one pacer of a credential in this process, keeping to the plan (requests per minute) while
 * the service sends no rate-limit headers. The plan may change when the credential is edited.
 */
export function pacerFor(credential: PacedCredential, plan: number | undefined): RequestPacer {
	const key = pacingKey(credential);
	let pacer = processPacers.get(key);
	if (!pacer) {
		pacer = new RequestPacer();
		processPacers.set(key, pacer);
	}
	pacer.setPlan(plan);
	return pacer;
}

/** The pace of the context's credential (read once per context). */
export async function readPacer(
	ctx: ServiceContext,
	profile: ServiceProfile,
): Promise<RequestPacer> {
	const credentials = await readCredentials(ctx, profile);
	const secret = credentials[profile.secretField];
	const credential = {
		credentialType: profile.credentialType,
		baseUrl: trimBaseUrl(credentials.baseUrl),
		secret: typeof secret === 'string' ? secret : '',
	};
	return pacerFor(credential, profile.planPerMinute?.(credentials));
}
