import { describe, expect, it } from 'vitest';

import { captureLogs } from '../../support/harness/logs.mts';
import { requestsTo } from '../../support/harness/sandbox.mts';
import { emittedIds, listReads, ring, webhookTriggerSandbox } from './webhookTrigger.mts';

const { sandbox, publish } = webhookTriggerSandbox();
const logged = captureLogs();
const MIB = 1024 * 1024;
const MARKER = 'body-marker-';

/** A body of `size` bytes, sent in chunks without a content-length header. */
function chunked(size: number): ReadableStream<Uint8Array> {
	const chunk = new TextEncoder().encode(MARKER.padEnd(64 * 1024, 'x'));
	let left = size;
	return new ReadableStream({
		pull(controller) {
			if (left <= 0) return controller.close();
			controller.enqueue(chunk.subarray(0, Math.min(left, chunk.length)));
			left -= chunk.length;
		},
	});
}

describe('Security Service Webhook Trigger: body size', () => {
	it('refuses a body over 1 MiB with a declared length: 413 before any request', async () => {
		const { listener } = await publish();
		sandbox.addThreat();
		const before = requestsTo(sandbox, 'security').length;

		const answer = await ring(listener, MARKER.padEnd(MIB + 1, 'x'), {
			'content-type': 'text/plain',
		});
		await listener.waitForCalls(1);
		expect(answer).toEqual({
			status: 413,
			body: {
				error: 'payload_too_large',
				message: 'A call may carry at most 1 MiB; it was not read.',
			},
		});
		expect(listener.calls[0].rawBody.length).toBe(MIB + 1);
		expect(requestsTo(sandbox, 'security')).toHaveLength(before);
		expect(listener.runs()).toHaveLength(0);
		expect(logged()).not.toContain(MARKER);
		expect(logged()).not.toContain(sandbox.securityKey);
	});

	it('refuses a chunked body over 1 MiB without content-length: 413 before any request', async () => {
		const { listener } = await publish();
		const before = requestsTo(sandbox, 'security').length;

		const answer = await fetch(listener.url, {
			method: 'POST',
			body: chunked(MIB + 1),
			headers: { 'content-type': 'application/json' },
			duplex: 'half',
		} as RequestInit);
		await listener.waitForCalls(1);
		expect(answer.status).toBe(413);
		expect(listener.calls[0].rawBody.length).toBe(MIB + 1);
		expect(requestsTo(sandbox, 'security')).toHaveLength(before);
		expect(logged()).not.toContain(MARKER);
	});

	it('takes a body of exactly 1 MiB as a ring', async () => {
		const { listener } = await publish();
		const added = sandbox.addThreat().id;
		const before = listReads(sandbox).length;

		const answer = await ring(listener, MARKER.padEnd(MIB, 'x'), { 'content-type': 'text/plain' });
		await listener.waitForCalls(1);
		expect(answer.status).toBe(200);
		expect(listReads(sandbox)).toHaveLength(before + 1);
		expect(emittedIds(listener)).toEqual([added]);
		expect(logged()).not.toContain(MARKER);
	});
});
