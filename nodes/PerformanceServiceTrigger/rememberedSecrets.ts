import type { IWebhookFunctions } from 'n8n-workflow';

import { PERFORMANCE_SERVICE } from '../shared/performanceTransport';
import { readSigningSecrets } from './signingSecrets';

/**
 * How long one n8n process reuses the signing secrets it read. n8n 2.x builds a V8 expression
 * isolate and queries the database for every credential read in a webhook call; under a burst of
 * deliveries that was a third of the trigger's cost. A secret removed from the credential is
 * still accepted for at most this long; a new one is used at once (see `secretsReadSince`).
 */
export const SECRETS_REUSED_FOR_MS = 2_000;

/** Credentials whose secrets one process remembers at most; the oldest read goes first. */
const MAX_REMEMBERED = 1_000;

interface Read {
	startedAtMs: number;
	secrets: Promise<string[]>;
}

const reads = new Map<string, Read>();

function credentialId(ctx: IWebhookFunctions): string | undefined {
	const id = ctx.getNode().credentials?.[PERFORMANCE_SERVICE.credentialType]?.id;
	return typeof id === 'string' && id !== '' ? id : undefined;
}

function forget(id: string, read: Read): void {
	if (reads.get(id) === read) reads.delete(id);
}

/**
 * The credential's signing secrets, from a read of it started at or after `sinceMs` (a read
 * under way is shared). Pass `receivedAtMs - SECRETS_REUSED_FOR_MS` for a delivery, and the
 * delivery's own receive time when the secrets read before did not verify it: the user may just
 * have rotated the secret. A credential without a signing secret, or one that could not be read,
 * is not remembered, so it is read again for the next delivery.
 */
export async function secretsReadSince(
	ctx: IWebhookFunctions,
	sinceMs: number,
	nowMs: number,
): Promise<{ secrets: string[]; startedAtMs: number }> {
	const id = credentialId(ctx);
	if (id === undefined) return { secrets: await readSigningSecrets(ctx), startedAtMs: nowMs };
	let read = reads.get(id);
	if (!read || read.startedAtMs < sinceMs) {
		const started: Read = { startedAtMs: nowMs, secrets: readSigningSecrets(ctx) };
		reads.delete(id);
		if (reads.size >= MAX_REMEMBERED) reads.delete(reads.keys().next().value ?? '');
		reads.set(id, started);
		started.secrets.then(
			(secrets) => secrets.length === 0 && forget(id, started),
			() => forget(id, started),
		);
		read = started;
	}
	return { secrets: await read.secrets, startedAtMs: read.startedAtMs };
}

/** Forgets every secret this process read, as a restart would (tests). */
export function forgetRememberedSecrets(): void {
	reads.clear();
}
