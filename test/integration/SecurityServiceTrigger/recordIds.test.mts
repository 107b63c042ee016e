import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ids, memoryIds, threats, triggerSandbox } from './securityTrigger.mts';

const { poll } = triggerSandbox();

describe('Security Service Trigger: records without IDs', () => {
	let server: Server;
	let baseUrl: string;
	let body: unknown = [];

	beforeAll(async () => {
		server = createServer((_request, response) => {
			response.setHeader('content-type', 'application/json');
			response.end(JSON.stringify(body));
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
	});
	afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

	it('fails with a clear error, emits nothing and keeps its memory', async () => {
		body = { threats: [{ id: 't1', title: 'a' }] };
		const first = await poll(threats, undefined, { baseUrl });
		expect(memoryIds(first.staticData)).toEqual(['t1']);

		body = {
			threats: [
				{ id: 't1', title: 'a' },
				{ title: 'b', severity: 'high' },
				{ uuid: 'x', title: 'c' },
			],
		};
		const failed = await poll(threats, first.staticData, { baseUrl });
		expect(failed.items).toEqual([]);
		expect(failed.error?.name).toBe('NodeOperationError');
		expect(failed.error?.message).toBe(
			'2 of 3 threats in the list have no "id" field, so new ones cannot be told apart',
		);
		expect((failed.error as Error & { description?: string }).description).toContain(
			'Fields of the first record without an ID: title, severity',
		);
		expect(failed.saved).toBe(false);

		// Once the IDs are back, only the truly new record is emitted: no flood.
		body = {
			threats: [
				{ id: 't1', title: 'a' },
				{ id: 't2', title: 'b' },
			],
		};
		expect(ids(await poll(threats, failed.staticData, { baseUrl }))).toEqual(['t2']);
	});

	it('fails the same way on the first activation and in a manual run', async () => {
		body = [{ title: 'no id' }];
		const first = await poll(threats, undefined, { baseUrl });
		expect(first.error?.message).toBe(
			'1 of 1 threats in the list have no "id" field, so new ones cannot be told apart',
		);
		expect(first.saved).toBe(false);

		const manual = await poll(threats, undefined, { baseUrl, mode: 'manual' });
		expect(manual.error?.name).toBe('NodeOperationError');
	});
});
