import { describe, expect, it } from 'vitest';

import { byId, fromList, reasonOf } from '../../../support/harness/runNode.mts';
import { securitySandbox } from '../securityNode.mts';

const { sandbox, run, securityRequests, serviceList } = securitySandbox();

describe('Security Service: Threat → Resolve', () => {
	it('PATCHes /threats/{id}/resolve without a body and emits the resolved threat', async () => {
		const result = await run({
			resource: 'threat',
			operation: 'resolve',
			threatId: fromList('thr_2'),
		});

		const [request] = securityRequests();
		expect(request).toMatchObject({ method: 'PATCH', path: '/threats/thr_2/resolve', body: '' });
		expect(request.headers['content-type']).toBeUndefined();
		expect(request.headers.authorization).toBe(`Bearer ${sandbox.securityKey}`);
		const stored = (await serviceList('threats')).find((threat) => threat.id === 'thr_2');
		expect(stored).toMatchObject({ status: 'resolved' });
		expect(result.json).toEqual([stored]);
	});

	it('refuses an ID that would change the path, without a request', async () => {
		const result = await run({
			resource: 'threat',
			operation: 'resolve',
			threatId: byId('../sites'),
		});

		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toContain('"../sites"');
		expect(securityRequests()).toHaveLength(0);
	});

	it('reports a threat resolved already as a conflict', async () => {
		const result = await run({ resource: 'threat', operation: 'resolve', threatId: byId('thr_4') });

		expect(reasonOf(result.error)).toBe('conflict');
		expect(result.error?.httpCode).toBe('409');
		expect(result.error?.message).toMatch(/: Threat thr_4 is already resolved$/);
	});
});

describe('Security Service: Resolve on many items (writes one at a time by default)', () => {
	const resolveEach = {
		resource: 'threat',
		operation: 'resolve',
		threatId: byId('={{ $json.id }}'),
	};

	it('stops at the first failed write: later items are not sent, and the error says which items were done', async () => {
		const result = await run(resolveEach, {
			items: [{ id: 'thr_1' }, { id: 'thr_4' }, { id: 'thr_2' }, { id: 'thr_3' }],
		});

		expect(reasonOf(result.error)).toBe('conflict');
		expect(result.error?.context?.itemIndex).toBe(1);
		expect(result.error?.description).toContain(
			'Item 0 was done before item 1 failed; items 2 to 3 were not sent.',
		);
		expect(securityRequests().map((request) => request.path)).toEqual([
			'/threats/thr_1/resolve',
			'/threats/thr_4/resolve',
		]);
		const open = (await serviceList('threats')).filter((threat) => threat.status === 'open');
		expect(open.map((threat) => threat.id)).toEqual(expect.arrayContaining(['thr_2', 'thr_3']));
	});

	it('a failure on the first item: nothing was done', async () => {
		const result = await run(resolveEach, {
			items: [{ id: 'thr_4' }, { id: 'thr_1' }, { id: 'thr_2' }, { id: 'thr_3' }],
		});
		expect(result.error?.description).toContain(
			'No item was done before item 0 failed; items 1 to 3 were not sent.',
		);
		expect(securityRequests()).toHaveLength(1);
	});

	it('Parallel Requests set by the user still sends writes at once', async () => {
		const result = await run(
			{ ...resolveEach, options: { parallelRequests: 10 } },
			{ items: [{ id: 'thr_4' }, { id: 'thr_1' }, { id: 'thr_2' }, { id: 'thr_3' }] },
		);
		expect(reasonOf(result.error)).toBe('conflict');
		expect(securityRequests()).toHaveLength(4);
		expect(result.error?.description).toContain('Items 1 to 3 were done before item 0 failed.');
	});
});
