import { NodeOperationError, type IHookFunctions, type IWebhookFunctions } from 'n8n-workflow';

import { PERFORMANCE_SERVICE } from '../transport';
import { setNewest } from './keepNewest';

interface SigningSecretFields {
	webhookSigningSecret?: unknown;
	previousWebhookSigningSecret?: unknown;
}

/** The secret exactly as entered, untrimmed: the HMAC key is the bytes the service was given. */
function rawString(value: unknown): string {
	return typeof value === 'string' ? value : '';
}

/**
 * The secrets a delivery may be signed with: the current one, then the previous one (for
 * rotation). Empty when the current secret is not set: then nothing is accepted, whatever
 * the previous field holds.
 */
export async function readSigningSecrets(
	ctx: IWebhookFunctions | IHookFunctions,
): Promise<string[]> {
	const credentials = await ctx.getCredentials<SigningSecretFields>(
		PERFORMANCE_SERVICE.credentialType,
	);
	const current = rawString(credentials.webhookSigningSecret);
	if (current.trim() === '') return [];
	const previous = rawString(credentials.previousWebhookSigningSecret);
	return previous.trim() === '' || previous === current ? [current] : [current, previous];
}

/** Fails activation (and "Listen for test event") while the credential has no signing secret. */
export async function assertSigningSecret(ctx: IHookFunctions): Promise<void> {
	const secrets = await readSigningSecrets(ctx);
	if (secrets.length > 0) return;
	throw new NodeOperationError(
		ctx.getNode(),
		`The "${PERFORMANCE_SERVICE.credentialName}" credential has no Webhook Signing Secret, so this trigger would reject every delivery`,
		{
			description:
				'Open the credential, set "Webhook Signing Secret" to the signing secret entered next to this webhook URL in the service\'s Optimize → Integrations section, save it, and activate the workflow again.',
		},
	);
}

/**
 * How long one n8n process reuses the signing secrets it read. n8n 2.x builds a V8 expression
 * isolate and queries the database for every credential read in a webhook call; under a burst of
 * deliveries that was a third of the trigger's cost. A secret removed from the credential is
 * still accepted for at most this long; a new one is used at once (see `signingSecretsFor`).
 */
export const SECRETS_REUSED_FOR_MS = 2_000;

/** Credentials whose secrets one process remembers at most; the oldest read goes first. */
const MAX_REMEMBERED = 1_000;

interface Read {
	/** Counts the reads of this process, so that "a later read" does not depend on clock resolution. */
	number: number;
	startedAtMs: number;
	secrets: Promise<string[]>;
}

export interface SecretsRead {
	secrets: string[];
	/** Which read they came from; pass it as `after` to ask for a newer one. */
	number: number;
	/** Whether this call started that read, after the delivery had arrived. */
	readForThisCall: boolean;
}

const reads = new Map<string, Read>();
let readsStarted = 0;

function credentialId(ctx: IWebhookFunctions): string | undefined {
	const id = ctx.getNode().credentials?.[PERFORMANCE_SERVICE.credentialType]?.id;
	return typeof id === 'string' && id !== '' ? id : undefined;
}

function forget(id: string, read: Read): void {
	if (reads.get(id) === read) reads.delete(id);
}

function startRead(ctx: IWebhookFunctions, nowMs: number): Read {
	readsStarted += 1;
	return { number: readsStarted, startedAtMs: nowMs, secrets: readSigningSecrets(ctx) };
}

/**
 * The credential's signing secrets. Without `after`, from a read started less than
 * SECRETS_REUSED_FOR_MS before `nowMs`; with it, from a read newer than read number `after`
 * (for a delivery the secrets of that read did not verify: the user may just have rotated the
 * secret). A read under way is shared. A credential without a signing secret, or one that could
 * not be read, is not remembered, so it is read again for the next delivery.
 */
export async function signingSecretsFor(
	ctx: IWebhookFunctions,
	nowMs: number,
	after?: number,
): Promise<SecretsRead> {
	const id = credentialId(ctx);
	if (id === undefined) {
		const read = startRead(ctx, nowMs);
		return { secrets: await read.secrets, number: read.number, readForThisCall: true };
	}
	const known = reads.get(id);
	const reusable =
		known !== undefined &&
		(after === undefined
			? nowMs - known.startedAtMs < SECRETS_REUSED_FOR_MS
			: known.number > after);
	if (reusable)
		return { secrets: await known.secrets, number: known.number, readForThisCall: false };

	const read = startRead(ctx, nowMs);
	setNewest(reads, id, read, MAX_REMEMBERED);
	read.secrets.then(
		(secrets) => secrets.length === 0 && forget(id, read),
		() => forget(id, read),
	);
	return { secrets: await read.secrets, number: read.number, readForThisCall: true };
}
