import { afterAll, bench, describe } from 'vitest';

import {
	computeSignature,
	verifyDelivery,
} from '../nodes/PerformanceService/trigger/webhookSignature.ts';
import { epochSeconds, eventBody, postDelivery } from '../test/support/harness/deliveries.mts';
import { packageNode } from '../test/support/harness/runWorkflow.mts';
import { startWebhookListener, type WebhookListener } from '../test/support/harness/runWebhook.mts';

const SECRET = 'whsec_bench_5a1e8c3f7b2d9a64e0c1';
const body = eventBody('audit.completed', { siteId: 'site_1', audit: { id: 'aud_1', score: 72 } });
const largeBody = eventBody('site.added', { padding: 'x'.repeat(256 * 1024) });

describe('signature verification', () => {
	const timestamp = epochSeconds();
	const signature = computeSignature(SECRET, timestamp, body);
	const largeSignature = computeSignature(SECRET, timestamp, largeBody);
	const options = { secrets: [SECRET, 'whsec_previous'], toleranceSeconds: 300, nowMs: Date.now() };

	bench('valid delivery (small body)', () => {
		verifyDelivery({ timestamp, signature, rawBody: body }, options);
	});
	bench('valid delivery (256 KiB body)', () => {
		verifyDelivery({ timestamp, signature: largeSignature, rawBody: largeBody }, options);
	});
	bench('tampered delivery, checked against both secrets', () => {
		verifyDelivery({ timestamp, signature, rawBody: `${body} ` }, options);
	});
});

describe('acknowledgement over HTTP (verify, n8n records the execution (emulated: 5 ms), answers 200, the workflow runs)', () => {
	const listening = (async (): Promise<WebhookListener> => {
		const trigger = packageNode(
			'performanceServiceTrigger',
			{ events: ['*'] },
			{
				name: 'Performance Service Trigger',
				credentials: ['performanceServiceApi'],
			},
		);
		return await startWebhookListener({
			workflow: { nodes: [trigger], connections: {} },
			credentials: {
				performanceServiceApi: {
					baseUrl: 'http://127.0.0.1:9/v1',
					apiToken: 'unused',
					webhookSigningSecret: SECRET,
				},
			},
		});
	})();

	afterAll(async () => {
		await (await listening).close();
	});

	bench('signed delivery answered', async () => {
		const { url } = await listening;
		const answer = await postDelivery(url, { body: eventBody('audit.completed'), secret: SECRET });
		if (answer.status !== 200) throw new Error(`expected 200, got ${answer.status}`);
	});
	bench('unsigned delivery rejected with 401', async () => {
		const { url } = await listening;
		const answer = await postDelivery(url, { body: eventBody('audit.completed'), signature: null });
		if (answer.status !== 401) throw new Error(`expected 401, got ${answer.status}`);
	});
});
