import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
	epochMillis,
	epochSeconds,
	postDelivery,
	sign,
} from '../../support/harness/deliveries.mts';
import { packageNode } from '../../support/harness/runWorkflow.mts';
import {
	startWebhookListener,
	type WebhookListener,
	type WebhookSetup,
} from '../../support/harness/runWebhook.mts';

const TRIGGER = 'Performance Service Trigger';

const setup: WebhookSetup = {
	workflow: {
		nodes: [
			packageNode(
				'performanceServiceTrigger',
				{},
				{ name: TRIGGER, credentials: ['performanceServiceApi'] },
			),
		],
		connections: {},
	},
	credentials: {
		performanceServiceApi: {
			baseUrl: 'http://127.0.0.1:9/v1',
			apiToken: 'tok_unused',
			webhookSigningSecret: '',
		},
	},
};
let listener: WebhookListener;

beforeAll(async () => {
	listener = await startWebhookListener(setup);
});

afterAll(async () => {
	await listener.close();
});

const secretArb = fc
	.string({ unit: 'binary', minLength: 1, maxLength: 40 })
	.filter((secret) => secret.trim() !== '');
const bodyArb = fc
	.record({
		id: fc.uuid(),
		type: fc.constantFrom('alert.opened', 'audit.completed', 'site.added'),
		data: fc.dictionary(
			fc.string({ unit: 'binary', maxLength: 10 }),
			fc.oneof(
				fc.string({ unit: 'binary', maxLength: 30 }),
				fc.integer(),
				fc.boolean(),
				fc.constant(null),
			),
		),
	})
	.chain((value) =>
		fc.constantFrom(undefined, 2, '\t', ' ').map((indent) => JSON.stringify(value, null, indent)),
	);

describe('Performance Service Trigger, property-based over HTTP', () => {
	it('starts exactly the correctly signed deliveries and answers 401 to every other one', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.record({
					secret: secretArb,
					otherSecret: secretArb,
					body: bodyArb,
					inMillis: fc.boolean(),
					tamper: fc.constantFrom('none', 'secret', 'body', 'signature', 'timestamp'),
					position: fc.nat(),
				}),
				async (c) => {
					setup.credentials.performanceServiceApi.webhookSigningSecret = c.secret;
					const timestamp = c.inMillis ? epochMillis() : epochSeconds();
					const correct = sign(c.secret, timestamp, c.body);
					let signature = correct;
					let sentTimestamp = timestamp;
					let body = c.body;
					if (c.tamper === 'secret') signature = sign(c.otherSecret, timestamp, c.body);
					if (c.tamper === 'body') body = `${c.body}${' \n'.charAt(c.position % 2)}`;
					if (c.tamper === 'signature') {
						const at = c.position % 64;
						signature = `${correct.slice(0, at)}${correct[at] === 'f' ? 'e' : 'f'}${correct.slice(at + 1)}`;
					}
					if (c.tamper === 'timestamp')
						sentTimestamp = String(Number(timestamp) - 1 - (c.position % 3));

					const callsBefore = listener.calls.length;
					const runsBefore = listener.runs().length;
					const answer = await postDelivery(listener.url, {
						body,
						timestamp: sentTimestamp,
						signature,
					});
					const correctlySigned = signature === sign(c.secret, sentTimestamp, body);
					expect(answer.status).toBe(correctlySigned ? 200 : 401);
					await listener.waitForCalls(callsBefore + 1);
					// A repeat of an event (possible while shrinking) is acknowledged as a duplicate.
					const started = correctlySigned && answer.body.duplicate !== true ? 1 : 0;
					expect(listener.runs().length).toBe(runsBefore + started);
				},
			),
			{ numRuns: 60 },
		);
	});
});
