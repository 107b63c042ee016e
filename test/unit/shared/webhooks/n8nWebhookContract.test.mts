import { once } from 'node:events';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';

import type { IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { afterEach, describe, expect, it, vi } from 'vitest';

import {
	answerWhenRecorded,
	keptInProcess,
} from '../../../../nodes/shared/webhooks/n8nWebhookContract.ts';

describe('the memory of one n8n process', () => {
	it('keeps the 1,000 entries used most recently', () => {
		const memory = new Map<string, object>();
		const remember = (key: string) => keptInProcess(memory, key, () => ({}));
		const first = remember('node0');
		for (let node = 1; node < 1_000; node++) remember(`node${node}`);
		expect(remember('node0')).toBe(first);
		remember('node1000');
		expect(memory.size).toBe(1_000);
		expect(remember('node0')).toBe(first);
		expect(memory.has('node1')).toBe(false);
	});
});

/** How long a sender that went away is given for n8n to record (docs/design.md, A5). */
const GRACE_MS = 60_000;

/** Node's own response to a request on a socket of its own: no network. */
function nodeResponse(): { res: ServerResponse; socket: Socket } {
	const socket = new Socket();
	const res = new ServerResponse(new IncomingMessage(socket));
	res.assignSocket(socket);
	return { res, socket };
}

/** One call of `answerWhenRecorded` on `res`, and every settle it made, in order. */
function answer(res: ServerResponse): { result: IWebhookResponseData; settled: boolean[] } {
	const settled: boolean[] = [];
	const ctx = { getResponseObject: () => res } as unknown as IWebhookFunctions;
	const result = answerWhenRecorded(ctx, [{ json: {} }], (recorded) => settled.push(recorded));
	return { result, settled };
}

/** A client abort as Node reports it: the socket closes, the response emits 'close'. */
async function abort(res: ServerResponse, socket: Socket): Promise<void> {
	const closed = once(res, 'close');
	socket.destroy();
	await closed;
}

afterEach(() => vi.useRealTimers());

describe("n8n webhook contract: every answer settles (Node's ServerResponse)", () => {
	it('marks a response whose client aborted as closed and destroyed, as the grace rule reads it', async () => {
		const { res, socket } = nodeResponse();
		expect([res.closed, res.destroyed]).toEqual([false, false]);
		await abort(res, socket);
		expect([res.closed, res.destroyed]).toEqual([true, true]);
	});

	it('starts the grace at once for a sender that left before the call, and settles false after it', async () => {
		vi.useFakeTimers({ toFake: ['setTimeout'] });
		const { res, socket } = nodeResponse();
		await abort(res, socket);
		const { settled } = answer(res);
		await vi.advanceTimersByTimeAsync(GRACE_MS - 1);
		expect(settled).toEqual([]);
		await vi.advanceTimersByTimeAsync(1);
		expect(settled).toEqual([false]);
	});

	it('starts the grace when the sender leaves after the call', async () => {
		vi.useFakeTimers({ toFake: ['setTimeout'] });
		const { res, socket } = nodeResponse();
		const { settled } = answer(res);
		await abort(res, socket);
		await vi.advanceTimersByTimeAsync(GRACE_MS);
		expect(settled).toEqual([false]);
	});

	it('settles true once n8n reads the answer, and only once, whatever follows', async () => {
		vi.useFakeTimers({ toFake: ['setTimeout'] });
		const { res, socket } = nodeResponse();
		const { result, settled } = answer(res);
		expect(result.webhookResponse).toEqual({ received: true });
		expect(result.webhookResponse).toEqual({ received: true });
		res.statusCode = 500;
		res.emit('finish');
		await abort(res, socket);
		await vi.advanceTimersByTimeAsync(GRACE_MS);
		expect(settled).toEqual([true]);
	});

	it('settles true on a 2xx answer n8n sent without reading the answer, false on any other', () => {
		for (const [status, expected] of [
			[200, [true]],
			[299, [true]],
			[199, [false]],
			[300, [false]],
			[500, [false]],
		] as const) {
			const { res } = nodeResponse();
			const { settled } = answer(res);
			res.statusCode = status;
			res.emit('finish');
			res.emit('finish');
			expect(settled).toEqual(expected);
		}
	});

	it('settles true after false when n8n records the execution after the grace (late)', async () => {
		vi.useFakeTimers({ toFake: ['setTimeout'] });
		const { res, socket } = nodeResponse();
		const { result, settled } = answer(res);
		await abort(res, socket);
		await vi.advanceTimersByTimeAsync(GRACE_MS);
		expect(result.webhookResponse).toEqual({ received: true });
		expect(settled).toEqual([false, true]);
	});

	it('listens to nothing without a settle (a test run)', () => {
		const { res } = nodeResponse();
		const listeners = res.listenerCount('finish') + res.listenerCount('close');
		const answered = answerWhenRecorded(
			{ getResponseObject: () => res } as unknown as IWebhookFunctions,
			[{ json: { id: 1 } }],
		);
		expect(answered.workflowData).toEqual([[{ json: { id: 1 } }]]);
		expect(answered.webhookResponse).toEqual({ received: true });
		expect(res.listenerCount('finish') + res.listenerCount('close')).toBe(listeners);
	});
});
