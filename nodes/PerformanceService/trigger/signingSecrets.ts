import { NodeOperationError, type IHookFunctions, type IWebhookFunctions } from 'n8n-workflow';

import { PERFORMANCE_SERVICE } from '../transport';

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
