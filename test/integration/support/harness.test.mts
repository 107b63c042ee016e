import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runNode } from '../../support/harness/runNode.mts';

describe('execution harness', () => {
	let server: Server;
	let baseUrl: string;
	const seen: Array<{ url?: string; headers: IncomingHttpHeaders }> = [];

	beforeAll(async () => {
		server = createServer((req, res) => {
			seen.push({ url: req.url, headers: req.headers });
			res.setHeader('content-type', 'application/json');
			res.end(JSON.stringify({ status: 'ok', path: req.url }));
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
	});

	afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

	it('runs a workflow through WorkflowExecute with real credential authentication and HTTP', async () => {
		const result = await runNode(
			'performanceService',
			{ resource: 'system', operation: 'getHealth' },
			{ credentials: { baseUrl, apiToken: 'tok_harness' }, items: [{ n: 1 }, { n: 2 }] },
		);

		expect(result.status).toBe('success');
		expect(result.json).toEqual([
			{ status: 'ok', path: '/v1/system' },
			{ status: 'ok', path: '/v1/system' },
		]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(seen.map((request) => request.headers.authorization)).toEqual([
			'Bearer tok_harness',
			'Bearer tok_harness',
		]);
	});
});
