import {
	NodeOperationError,
	sleep,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type INodeParameters,
} from 'n8n-workflow';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

import { PERFORMANCE_EVENT_TYPES as EVENT_TYPES } from '../../../nodes/PerformanceService/transport/serviceValues.ts';
import {
	epochMillis,
	epochSeconds,
	eventBody,
	postDelivery,
	sign,
} from '../../support/harness/deliveries.mts';
import { captureLogs } from '../../support/harness/logs.mts';
import { packageNode, type Credentials } from '../../support/harness/runWorkflow.mts';
import {
	activateWebhook,
	runWebhookMethod,
	startWebhookListener,
	type WebhookListener,
	type WebhookSetup,
} from '../../support/harness/runWebhook.mts';

const SECRET = 'whsec_current_3c1f0a9e77d2';
const PREVIOUS = 'whsec_previous_81b4e6d20c5a';
const TRIGGER = 'Performance Service Trigger';
/** How long the README says a process reuses the signing secrets it read: 2 s. */
const SECRETS_REUSED_FOR_MS = 2_000;

const listeners: WebhookListener[] = [];
const logged = captureLogs();

afterAll(async () => {
	await Promise.all(listeners.map((listener) => listener.close()));
});

function credentials(fields: IDataObject = {}): Credentials {
	return {
		performanceServiceApi: {
			baseUrl: 'http://127.0.0.1:9/v1',
			apiToken: 'tok_unused',
			webhookSigningSecret: SECRET,
			...fields,
		},
	};
}

function setupFor(
	parameters: INodeParameters = {},
	credentialFields: IDataObject = {},
): WebhookSetup {
	const trigger = packageNode('performanceServiceTrigger', parameters, {
		name: TRIGGER,
		credentials: ['performanceServiceApi'],
	});
	return {
		workflow: { nodes: [trigger], connections: {} },
		credentials: credentials(credentialFields),
	};
}

async function listen(
	parameters: INodeParameters = {},
	credentialFields: IDataObject = {},
): Promise<WebhookListener> {
	const listener = await startWebhookListener(setupFor(parameters, credentialFields));
	listeners.push(listener);
	return listener;
}

/** The items the trigger handed to the workflow of each started run. */
function startedItems(listener: WebhookListener): IDataObject[] {
	return listener.runs().flatMap((run) => run.output(TRIGGER).map((item) => item.json));
}

describe('Performance Service Trigger: accepted deliveries', () => {
	let listener: WebhookListener;
	afterEach(() => {
		listener.calls.length = 0;
	});

	it.each(EVENT_TYPES)(
		'starts the workflow with the parsed body of a %s delivery',
		async (type) => {
			listener ??= await listen();
			const body = eventBody(type, { siteId: 'site_1' });
			const answer = await postDelivery(listener.url, { body, secret: SECRET });
			expect(answer).toEqual({ status: 200, body: { received: true } });

			const [call] = await listener.waitForCalls(1);
			// Answered by n8n, not by the node, once the execution was recorded.
			expect(call).toMatchObject({ answeredByNode: false, executionRecordedBeforeAnswer: true });
			expect(call.run?.run.status).toBe('success');
			expect(startedItems(listener)).toEqual([JSON.parse(body)]);
		},
	);

	it('accepts a body of exactly 1 MiB, the most a delivery may have', async () => {
		listener ??= await listen();
		const base = eventBody('site.added', { padding: '' });
		const padding = 'x'.repeat(1024 * 1024 - base.length);
		const body = base.replace('"padding":""', `"padding":"${padding}"`);
		expect(Buffer.byteLength(body)).toBe(1024 * 1024);
		const answer = await postDelivery(listener.url, { body, secret: SECRET });
		expect(answer).toEqual({ status: 200, body: { received: true } });
		await listener.waitForCalls(1);
		expect(listener.runs()).toHaveLength(1);
	});

	it('verifies the exact bytes: whitespace and non-ASCII characters included', async () => {
		listener ??= await listen();
		const body =
			'{\n  "type" : "alert.opened",\t"data": { "reason": "Ladezeit über Ziel – 🚨 目標未達", "score" : 1.50 }\r\n}\n';
		const answer = await postDelivery(listener.url, { body, secret: SECRET });
		expect(answer.status).toBe(200);
		await listener.waitForCalls(1);
		expect(startedItems(listener)).toEqual([JSON.parse(body)]);

		// The same JSON re-serialised is different bytes: the original signature does not fit it.
		const timestamp = epochSeconds();
		const reserialised = await postDelivery(listener.url, {
			body: JSON.stringify(JSON.parse(body)),
			timestamp,
			signature: sign(SECRET, timestamp, body),
		});
		expect(reserialised).toMatchObject({ status: 401, body: { error: 'signature_mismatch' } });
	});

	it('accepts millisecond timestamps', async () => {
		listener ??= await listen();
		const answer = await postDelivery(listener.url, {
			body: eventBody('audit.completed'),
			secret: SECRET,
			timestamp: epochMillis(),
		});
		expect(answer.status).toBe(200);
	});

	it('adds the delivery headers, receive time and matching secret when asked to', async () => {
		const withHeaders = await listen({ options: { includeDeliveryHeaders: true } });
		const body = eventBody('site.added');
		const timestamp = epochSeconds();
		const before = Date.now();
		await postDelivery(withHeaders.url, { body, secret: SECRET, timestamp });
		await withHeaders.waitForCalls(1);
		const [item] = startedItems(withHeaders);
		const delivery = item._delivery as IDataObject;
		expect({ ...item, _delivery: undefined }).toEqual({
			...JSON.parse(body),
			_delivery: undefined,
		});
		expect(delivery.signedWith).toBe('current');
		expect(delivery.headers).toMatchObject({
			'x-service-webhook-timestamp': timestamp,
			'x-service-webhook-signature': sign(SECRET, timestamp, body),
			'content-type': 'application/json',
		});
		expect(Date.parse(delivery.receivedAt as string)).toBeGreaterThanOrEqual(before - 1000);
		expect(JSON.stringify(item)).not.toContain(SECRET);
	});
});

describe('Performance Service Trigger: rejected deliveries start nothing', () => {
	let listener: WebhookListener;
	afterEach(() => {
		const runs = listener.runs();
		listener.calls.length = 0;
		expect(runs).toEqual([]);
	});

	async function expectRejected(
		delivery: Parameters<typeof postDelivery>[1],
		error: string,
		status = 401,
	): Promise<void> {
		listener ??= await listen();
		const answer = await postDelivery(listener.url, delivery);
		expect(answer.status).toBe(status);
		expect(answer.body).toEqual({ error, message: expect.any(String) });
		expect(JSON.stringify(answer.body)).not.toContain(SECRET);
		await listener.waitForCalls(1);
	}

	it('a tampered body', async () => {
		const body = eventBody('alert.opened', { reason: 'x' });
		const timestamp = epochSeconds();
		await expectRejected(
			{ body: body.replace('"x"', '"y"'), timestamp, signature: sign(SECRET, timestamp, body) },
			'signature_mismatch',
		);
	});

	it('a delivery signed with the wrong secret', async () => {
		await expectRejected(
			{ body: eventBody('alert.opened'), secret: 'whsec_wrong' },
			'signature_mismatch',
		);
	});

	it('a signature with one character changed', async () => {
		const body = eventBody('alert.opened');
		const timestamp = epochSeconds();
		const signature = sign(SECRET, timestamp, body);
		const changed = `${signature.slice(0, 20)}${signature[20] === '0' ? '1' : '0'}${signature.slice(21)}`;
		await expectRejected({ body, timestamp, signature: changed }, 'signature_mismatch');
	});

	it('a signature in upper-case hex (the service sends lower case)', async () => {
		const body = eventBody('alert.opened');
		const timestamp = epochSeconds();
		await expectRejected(
			{ body, timestamp, signature: sign(SECRET, timestamp, body).toUpperCase() },
			'malformed_signature',
		);
	});

	it('a missing timestamp header', async () => {
		await expectRejected(
			{ body: eventBody('alert.opened'), timestamp: null, signature: 'a'.repeat(64) },
			'missing_timestamp',
		);
	});

	it('a missing signature header', async () => {
		await expectRejected({ body: eventBody('alert.opened'), signature: null }, 'missing_signature');
	});

	it('a timestamp that is not digits', async () => {
		const body = eventBody('alert.opened');
		const timestamp = new Date().toISOString();
		await expectRejected(
			{ body, timestamp, signature: sign(SECRET, timestamp, body) },
			'malformed_timestamp',
		);
	});

	it.each([
		['seconds', 'stale', epochSeconds, -301, 'timestamp_too_old'],
		['seconds', 'future', epochSeconds, 330, 'timestamp_in_future'],
		['milliseconds', 'stale', epochMillis, -301, 'timestamp_too_old'],
		['milliseconds', 'future', epochMillis, 330, 'timestamp_in_future'],
	])('a %s timestamp that is %s', async (_unit, _kind, timestampAt, offset, error) => {
		await expectRejected(
			{ body: eventBody('alert.opened'), secret: SECRET, timestamp: timestampAt(offset) },
			error,
		);
	});

	it('a correctly signed body that is not JSON (400)', async () => {
		await expectRejected(
			{ body: 'site added', secret: SECRET, contentType: 'text/plain' },
			'invalid_json',
			400,
		);
	});

	it('a body over 1 MiB (413), before the signature is checked', async () => {
		const body = eventBody('site.added', { padding: 'x'.repeat(1024 * 1024) });
		await expectRejected({ body, secret: SECRET }, 'payload_too_large', 413);
		await expectRejected({ body, signature: 'f'.repeat(64) }, 'payload_too_large', 413);
	});

	it('a correctly signed JSON body that is not an object (400)', async () => {
		await expectRejected(
			{ body: '[{"type":"alert.opened"}]', secret: SECRET },
			'invalid_json',
			400,
		);
	});

	it('a correctly signed JSON null (400)', async () => {
		await expectRejected({ body: 'null', secret: SECRET }, 'invalid_json', 400);
	});
});

describe('Performance Service Trigger: what each rejection says (the one place its wording is asserted)', () => {
	it('answers every rejection with its code and a sentence naming the cause, never a secret', async () => {
		const listener = await listen();
		const unconfigured = await listen({}, { webhookSigningSecret: '' });
		const body = eventBody('alert.opened');
		const now = epochSeconds();
		const cases: Array<[string, Parameters<typeof postDelivery>[1], number, string, string]> = [
			[
				unconfigured.url,
				{ body, secret: SECRET },
				401,
				'no_signing_secret',
				'No webhook signing secret is set on the credential, so no delivery is accepted.',
			],
			[
				listener.url,
				{ body, timestamp: null, signature: 'a'.repeat(64) },
				401,
				'missing_timestamp',
				'The X-Service-Webhook-Timestamp header is missing.',
			],
			[
				listener.url,
				{ body, signature: null },
				401,
				'missing_signature',
				'The X-Service-Webhook-Signature header is missing.',
			],
			[
				listener.url,
				{ body, timestamp: 'yesterday', signature: 'a'.repeat(64) },
				401,
				'malformed_timestamp',
				'The timestamp header must be 1 to 15 digits.',
			],
			[
				listener.url,
				{ body, timestamp: now, signature: 'A'.repeat(64) },
				401,
				'malformed_signature',
				'The signature header must be 64 lower-case hex digits.',
			],
			[
				listener.url,
				{ body, secret: 'whsec_wrong' },
				401,
				'signature_mismatch',
				'The signature does not match the timestamp and body.',
			],
			[
				listener.url,
				{ body, secret: SECRET, timestamp: epochSeconds(-301) },
				401,
				'timestamp_too_old',
				'The timestamp is older than the tolerance allows.',
			],
			[
				listener.url,
				{ body, secret: SECRET, timestamp: epochSeconds(330) },
				401,
				'timestamp_in_future',
				'The timestamp is further in the future than the tolerance allows.',
			],
			[
				listener.url,
				{ body: 'x'.repeat(1024 * 1024 + 1), secret: SECRET, contentType: 'text/plain' },
				413,
				'payload_too_large',
				'The body is larger than the 1 MiB a delivery may have; it was not verified.',
			],
			[
				listener.url,
				{ body: '[]', secret: SECRET },
				400,
				'invalid_json',
				'The verified body is not a JSON object.',
			],
		];
		for (const [url, delivery, status, error, message] of cases) {
			expect(await postDelivery(url, delivery), error).toEqual({
				status,
				body: { error, message },
			});
		}
		expect(listener.runs()).toEqual([]);
		expect(unconfigured.runs()).toEqual([]);
	});

	it('answers as JSON that no cache may keep', async () => {
		const listener = await listen();
		const body = eventBody('alert.opened');
		const response = await fetch(listener.url, { method: 'POST', body });
		expect(response.status).toBe(401);
		expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
		expect(response.headers.get('cache-control')).toBe('no-store');
		expect(await response.json()).toMatchObject({ error: 'missing_timestamp' });
		// n8n sends no second answer to a request the node answered.
		const [call] = await listener.waitForCalls(1);
		expect(call.result).toEqual({ noWebhookResponse: true });
	});

	it.each([
		['no credential', undefined, 'Node does not have any credentials set"'],
		[
			'only a credential of another type',
			{ securityServiceApi: { id: 'c2', name: 'Security Service account' } },
			'Node does not have any credentials set for',
		],
	])(
		'answers 500 credential_unavailable when the node has %s, and logs why',
		async (_, nodeCredentials, cause) => {
			const setup = setupFor();
			setup.workflow.nodes[0].credentials = nodeCredentials;
			const listener = await startWebhookListener(setup);
			listeners.push(listener);
			expect(
				await postDelivery(listener.url, { body: eventBody('alert.opened'), secret: SECRET }),
			).toEqual({
				status: 500,
				body: {
					error: 'credential_unavailable',
					message: 'The trigger could not read its credential.',
				},
			});
			expect(listener.runs()).toEqual([]);
			// n8n's own reason is in the log (README: details in the n8n log).
			expect(logged()).toContain(
				'"Performance Service Trigger: The trigger could not read its credential.",{"error":',
			);
			expect(logged()).toContain(cause);
			expect(logged()).toContain('"workflowId":"test-workflow"');
		},
	);

	it('answers 500 internal_error to a delivery it cannot process, and logs why', async () => {
		// An option whose expression does not parse: n8n throws when the trigger reads it.
		const listener = await listen({ options: { timestampTolerance: '={{ (1 }}' } });
		expect(
			await postDelivery(listener.url, { body: eventBody('alert.opened'), secret: SECRET }),
		).toEqual({
			status: 500,
			body: { error: 'internal_error', message: 'The delivery could not be processed.' },
		});
		expect(listener.runs()).toEqual([]);
		expect(logged()).toContain(
			'"Performance Service Trigger: The delivery could not be processed.",{"error":',
		);
		expect(logged()).toContain('"workflowId":"test-workflow"');
	});
});

describe('Performance Service Trigger: replay window', () => {
	it('keeps the default window of 300 s', async () => {
		const listener = await listen();
		const inside = await postDelivery(listener.url, {
			body: eventBody('alert.opened'),
			secret: SECRET,
			timestamp: epochSeconds(-290),
		});
		expect(inside.status).toBe(200);
	});

	it('uses the configured tolerance', async () => {
		const listener = await listen({ options: { timestampTolerance: 60 } });
		const stale = await postDelivery(listener.url, {
			body: eventBody('alert.opened'),
			secret: SECRET,
			timestamp: epochSeconds(-61),
		});
		expect(stale.body).toMatchObject({ error: 'timestamp_too_old' });
		const fresh = await postDelivery(listener.url, {
			body: eventBody('alert.opened'),
			secret: SECRET,
			timestamp: epochSeconds(-59),
		});
		expect(fresh.status).toBe(200);
	});

	it('keeps the 300 s window when the tolerance is negative or not a number', async () => {
		for (const timestampTolerance of [-5, 'soon']) {
			const listener = await listen({ options: { timestampTolerance } });
			const stale = await postDelivery(listener.url, {
				body: eventBody('alert.opened'),
				secret: SECRET,
				timestamp: epochSeconds(-301),
			});
			expect(stale.body).toMatchObject({ error: 'timestamp_too_old' });
		}
	});

	it.each(['', ' ', '={{ "" }}', '={{ " " }}'])(
		'keeps the 300 s window when the tolerance is blank (%j), rather than turning the check off',
		async (timestampTolerance) => {
			const listener = await listen({ options: { timestampTolerance } });
			for (const offset of [-86_400 * 365, -301]) {
				const stale = await postDelivery(listener.url, {
					body: eventBody('alert.opened'),
					secret: SECRET,
					timestamp: epochSeconds(offset),
				});
				expect(stale).toMatchObject({ status: 401, body: { error: 'timestamp_too_old' } });
			}
			const fresh = await postDelivery(listener.url, {
				body: eventBody('alert.opened'),
				secret: SECRET,
				timestamp: epochSeconds(-290),
			});
			expect(fresh.status).toBe(200);
			await listener.waitForCalls(3);
			expect(listener.runs()).toHaveLength(1);
		},
	);

	it.each([
		['seconds', epochSeconds, -86_400 * 365],
		['milliseconds', epochMillis, -86_400 * 365],
		['seconds in the future', epochSeconds, 86_400],
	])('turns the age check off with a tolerance of 0 (%s)', async (_unit, timestampAt, offset) => {
		const listener = await listen({ options: { timestampTolerance: 0 } });
		const timestamp = timestampAt(offset);
		const answer = await postDelivery(listener.url, {
			body: eventBody('alert.opened'),
			secret: SECRET,
			timestamp,
		});
		expect(answer.status).toBe(200);
		await listener.waitForCalls(1);
		expect(listener.runs()).toHaveLength(1);
	});

	it('acknowledges a replayed delivery without starting the workflow again', async () => {
		const listener = await listen();
		const body = eventBody('audit.regression');
		const timestamp = epochSeconds();
		const signature = sign(SECRET, timestamp, body);
		const first = await postDelivery(listener.url, { body, timestamp, signature });
		const replay = await postDelivery(listener.url, { body, timestamp, signature });
		expect(first).toEqual({ status: 200, body: { received: true } });
		expect(replay).toEqual({ status: 200, body: { received: true, duplicate: true } });
		await listener.waitForCalls(2);
		expect(listener.calls[1]).toMatchObject({
			answeredByNode: true,
			executionRecordedBeforeAnswer: false,
		});
		expect(listener.runs()).toHaveLength(1);

		// A retry by the service is signed afresh: a new timestamp, the same event.
		const retry = await postDelivery(listener.url, {
			body,
			secret: SECRET,
			timestamp: epochMillis(),
		});
		expect(retry).toEqual({ status: 200, body: { received: true, duplicate: true } });
		await listener.waitForCalls(3);
		expect(listener.runs()).toHaveLength(1);
	});

	it('does not remember rejected deliveries', async () => {
		const listener = await listen();
		const body = eventBody('alert.opened');
		const timestamp = epochSeconds();
		const signature = sign(SECRET, timestamp, body);
		const other = await listen({}, { webhookSigningSecret: 'whsec_other' });
		expect((await postDelivery(other.url, { body, timestamp, signature })).status).toBe(401);
		expect(await postDelivery(listener.url, { body, timestamp, signature })).toEqual({
			status: 200,
			body: { received: true },
		});
	});
});

describe('Performance Service Trigger: secret rotation', () => {
	it('accepts the new and the previous secret while both are set', async () => {
		const listener = await listen(
			{ options: { includeDeliveryHeaders: true } },
			{ webhookSigningSecret: SECRET, previousWebhookSigningSecret: PREVIOUS },
		);
		expect(
			(await postDelivery(listener.url, { body: eventBody('alert.opened'), secret: SECRET }))
				.status,
		).toBe(200);
		expect(
			(await postDelivery(listener.url, { body: eventBody('alert.opened'), secret: PREVIOUS }))
				.status,
		).toBe(200);
		const third = await postDelivery(listener.url, {
			body: eventBody('alert.opened'),
			secret: 'whsec_unrelated',
		});
		expect(third.body).toMatchObject({ error: 'signature_mismatch' });
		await listener.waitForCalls(3);
		expect(
			startedItems(listener).map((item) => (item._delivery as IDataObject).signedWith),
		).toEqual(['current', 'previous']);
	});

	it('rejects the old secret once the previous field is cleared', async () => {
		const listener = await listen(
			{},
			{ webhookSigningSecret: SECRET, previousWebhookSigningSecret: '' },
		);
		const answer = await postDelivery(listener.url, {
			body: eventBody('alert.opened'),
			secret: PREVIOUS,
		});
		expect(answer.body).toMatchObject({ error: 'signature_mismatch' });
	});
});

/** The setup's credential, counting how often the trigger reads it. */
function countedCredential(setup: WebhookSetup): {
	reads: () => number;
	edit: (fields: ICredentialDataDecryptedObject) => void;
} {
	let data = setup.credentials.performanceServiceApi;
	let reads = 0;
	Object.defineProperty(setup.credentials, 'performanceServiceApi', {
		enumerable: true,
		get: () => {
			reads += 1;
			return data;
		},
	});
	return { reads: () => reads, edit: (fields) => (data = { ...data, ...fields }) };
}

describe('Performance Service Trigger: what one n8n process remembers of the credential', () => {
	async function listenCounted(credentialFields: ICredentialDataDecryptedObject = {}) {
		const setup = setupFor({}, credentialFields);
		const credential = countedCredential(setup);
		const listener = await startWebhookListener(setup);
		listeners.push(listener);
		return { listener, credential };
	}

	it('reads the signing secrets once for a burst of deliveries', async () => {
		const { listener, credential } = await listenCounted();
		const answers = await Promise.all(
			Array.from({ length: 20 }, () =>
				postDelivery(listener.url, { body: eventBody('alert.opened'), secret: SECRET }),
			),
		);
		expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
		await listener.waitForCalls(20);
		expect(listener.runs()).toHaveLength(20);
		expect(credential.reads()).toBe(1);
	});

	it('takes a new secret at once: a delivery the remembered secrets do not verify reads the credential again', async () => {
		const { listener, credential } = await listenCounted();
		expect(
			(await postDelivery(listener.url, { body: eventBody('alert.opened'), secret: SECRET }))
				.status,
		).toBe(200);
		credential.edit({
			webhookSigningSecret: 'whsec_rotated_5e0c',
			previousWebhookSigningSecret: SECRET,
		});
		const rotated = await postDelivery(listener.url, {
			body: eventBody('alert.opened'),
			secret: 'whsec_rotated_5e0c',
		});
		expect(rotated).toEqual({ status: 200, body: { received: true } });
		expect(credential.reads()).toBe(2);
		const forged = await postDelivery(listener.url, {
			body: eventBody('alert.opened'),
			secret: 'whsec_forged',
		});
		expect(forged.body).toMatchObject({ error: 'signature_mismatch' });
	});

	it('reads the credential again only for a signature the remembered secrets do not verify', async () => {
		const { listener, credential } = await listenCounted();
		const forged = () =>
			postDelivery(listener.url, { body: eventBody('alert.opened'), secret: 'whsec_forged' });
		expect((await forged()).body).toMatchObject({ error: 'signature_mismatch' });
		expect(credential.reads()).toBe(1);
		const stale = await postDelivery(listener.url, {
			body: eventBody('alert.opened'),
			secret: SECRET,
			timestamp: epochSeconds(-3600),
		});
		expect(stale.body).toMatchObject({ error: 'timestamp_too_old' });
		expect(credential.reads()).toBe(1);
		expect((await forged()).body).toMatchObject({ error: 'signature_mismatch' });
		expect(credential.reads()).toBe(2);
	});

	it(`refuses a removed secret once ${SECRETS_REUSED_FOR_MS} ms have passed since the last read`, async () => {
		const { listener, credential } = await listenCounted({
			previousWebhookSigningSecret: PREVIOUS,
		});
		expect(
			(await postDelivery(listener.url, { body: eventBody('alert.opened'), secret: PREVIOUS }))
				.status,
		).toBe(200);
		credential.edit({ previousWebhookSigningSecret: '' });
		await sleep(SECRETS_REUSED_FOR_MS + 50);
		const old = await postDelivery(listener.url, {
			body: eventBody('alert.opened'),
			secret: PREVIOUS,
		});
		expect(old).toMatchObject({ status: 401, body: { error: 'signature_mismatch' } });
		expect(credential.reads()).toBe(2);
		// The read it just made is reused in its turn.
		const current = await postDelivery(listener.url, {
			body: eventBody('alert.opened'),
			secret: SECRET,
		});
		expect(current.status).toBe(200);
		expect(credential.reads()).toBe(2);
		credential.edit({ webhookSigningSecret: '' });
		await sleep(SECRETS_REUSED_FOR_MS + 50);
		const none = await postDelivery(listener.url, {
			body: eventBody('alert.opened'),
			secret: SECRET,
		});
		expect(none).toMatchObject({ status: 401, body: { error: 'no_signing_secret' } });
		await listener.waitForCalls(4);
		expect(listener.runs()).toHaveLength(2);
	});

	it('reads a credential saved without an id (known by its name) for every delivery', async () => {
		const setup = setupFor();
		setup.workflow.nodes[0].credentials = {
			performanceServiceApi: { id: null, name: 'Performance Service account' },
		};
		const credential = countedCredential(setup);
		const listener = await startWebhookListener(setup);
		listeners.push(listener);
		for (const reads of [1, 2]) {
			const answer = await postDelivery(listener.url, {
				body: eventBody('alert.opened'),
				secret: SECRET,
			});
			expect(answer.status).toBe(200);
			expect(credential.reads()).toBe(reads);
		}
	});

	it('does not remember a credential without a signing secret: setting one works for the next delivery', async () => {
		const { listener, credential } = await listenCounted({ webhookSigningSecret: '' });
		const refused = await postDelivery(listener.url, {
			body: eventBody('alert.opened'),
			secret: SECRET,
		});
		expect(refused).toMatchObject({ status: 401, body: { error: 'no_signing_secret' } });
		credential.edit({ webhookSigningSecret: SECRET });
		const accepted = await postDelivery(listener.url, {
			body: eventBody('alert.opened'),
			secret: SECRET,
		});
		expect(accepted).toEqual({ status: 200, body: { received: true } });
		expect(credential.reads()).toBe(2);
	});
});

describe('Performance Service Trigger: fail closed without a signing secret', () => {
	it('refuses to activate and says where to set the secret', async () => {
		const setup = setupFor({}, { webhookSigningSecret: '' });
		const activation = activateWebhook(setup);
		await expect(activation).rejects.toBeInstanceOf(NodeOperationError);
		await expect(activation).rejects.toThrow(
			/"Performance Service API" credential has no Webhook Signing Secret/,
		);
		const error = (await activation.catch((caught: unknown) => caught)) as NodeOperationError;
		expect(error.description).toMatch(/Optimize → Integrations/);
		await expect(runWebhookMethod(setup, 'create')).rejects.toThrow(/Webhook Signing Secret/);
		await expect(
			runWebhookMethod({ ...setup, mode: 'manual' }, 'checkExists', 'manual'),
		).rejects.toThrow(/Webhook Signing Secret/);
	});

	it('refuses to activate with only a previous secret', async () => {
		const setup = setupFor(
			{},
			{ webhookSigningSecret: '', previousWebhookSigningSecret: PREVIOUS },
		);
		await expect(runWebhookMethod(setup, 'checkExists')).rejects.toThrow(/Webhook Signing Secret/);
	});

	it('refuses to activate with a secret of only spaces', async () => {
		const setup = setupFor({}, { webhookSigningSecret: '   ' });
		await expect(runWebhookMethod(setup, 'checkExists')).rejects.toThrow(/Webhook Signing Secret/);
	});

	it('activates with a secret, registering nothing', async () => {
		const setup = setupFor();
		await expect(activateWebhook(setup)).resolves.toBeUndefined();
		expect(await runWebhookMethod(setup, 'checkExists')).toBe(true);
		expect(await runWebhookMethod(setup, 'create')).toBe(true);
		expect(await runWebhookMethod(setup, 'delete')).toBe(true);
	});

	it('rejects every delivery, signed or not, if the secret is removed after activation', async () => {
		const listener = await listen(
			{},
			{ webhookSigningSecret: '', previousWebhookSigningSecret: PREVIOUS },
		);
		for (const secret of ['', PREVIOUS]) {
			const answer = await postDelivery(listener.url, { body: eventBody('alert.opened'), secret });
			expect(answer).toMatchObject({ status: 401, body: { error: 'no_signing_secret' } });
		}
		await listener.waitForCalls(2);
		expect(listener.runs()).toEqual([]);
	});
});

describe('Performance Service Trigger: event filter', () => {
	it('acknowledges verified deliveries of unselected types and starts nothing for them', async () => {
		const listener = await listen({ events: ['alert.opened', 'alert.resolved'] });
		for (const type of EVENT_TYPES) {
			const answer = await postDelivery(listener.url, { body: eventBody(type), secret: SECRET });
			expect(answer.status).toBe(200);
			expect(answer.body).toEqual(
				type.startsWith('alert.')
					? { received: true }
					: { received: true, ignored: 'event_not_selected' },
			);
		}
		await listener.waitForCalls(EVENT_TYPES.length);
		expect(startedItems(listener).map((item) => item.type)).toEqual([
			'alert.opened',
			'alert.resolved',
		]);
	});

	it('takes a single event type saved as text, not a list', async () => {
		const listener = await listen({ events: 'alert.opened' });
		const answers = await Promise.all(
			['alert.opened', 'audit.completed'].map((type) =>
				postDelivery(listener.url, { body: eventBody(type), secret: SECRET }),
			),
		);
		expect(answers.map((answer) => answer.body)).toEqual([
			{ received: true },
			{ received: true, ignored: 'event_not_selected' },
		]);
	});

	it('reads the event type from "event" when "type" is absent', async () => {
		const listener = await listen({ events: ['audit.completed'] });
		const selected = await postDelivery(listener.url, {
			body: JSON.stringify({ event: 'audit.completed', data: {} }),
			secret: SECRET,
		});
		const other = await postDelivery(listener.url, {
			body: JSON.stringify({ event: 'site.added', data: {} }),
			secret: SECRET,
		});
		const untyped = await postDelivery(listener.url, {
			body: JSON.stringify({ data: {} }),
			secret: SECRET,
		});
		expect([selected.body, other.body, untyped.body]).toEqual([
			{ received: true },
			{ received: true, ignored: 'event_not_selected' },
			{ received: true, ignored: 'event_not_selected' },
		]);
		await listener.waitForCalls(3);
		expect(listener.runs()).toHaveLength(1);
	});

	it('starts on every type, known or not, with "*" (the default)', async () => {
		const listener = await listen();
		const answer = await postDelivery(listener.url, {
			body: eventBody('site.removed'),
			secret: SECRET,
		});
		expect(answer.body).toEqual({ received: true });
	});
});

describe('Performance Service Trigger: test URL', () => {
	it('verifies deliveries to the test URL the same way', async () => {
		const setup: WebhookSetup = { ...setupFor(), mode: 'manual' };
		const listener = await startWebhookListener(setup);
		listeners.push(listener);
		expect(
			(await postDelivery(listener.url, { body: eventBody('alert.opened'), secret: 'nope' }))
				.status,
		).toBe(401);
		expect(
			(await postDelivery(listener.url, { body: eventBody('alert.opened'), secret: SECRET }))
				.status,
		).toBe(200);
		await listener.waitForCalls(2);
		expect(listener.runs().map((run) => run.run.mode)).toEqual(['manual']);
	});
});
