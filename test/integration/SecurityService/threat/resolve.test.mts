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
