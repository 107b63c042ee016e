import { describe, expect, it } from 'vitest';

import { byId, fromList, reasonOf } from '../../../support/harness/runNode.mts';
import { securitySandbox } from '../securityNode.mts';

const { run, securityRequests } = securitySandbox();

describe('Security Service: Scan → Trigger', () => {
	it('POSTs the site picked from the list and the additional fields', async () => {
		const result = await run({
			resource: 'scan',
			operation: 'trigger',
			siteId: fromList('st_2'),
			additionalFields: '{"depth": "deep"}',
		});

		const [request] = securityRequests();
		expect(request).toMatchObject({ method: 'POST', path: '/scans/trigger' });
		expect(request.headers['content-type']).toBe('application/json');
		expect(JSON.parse(request.body)).toEqual({ depth: 'deep', siteId: 'st_2' });
		expect(result.json).toEqual([
			{
				id: 'scn_5',
				siteId: 'st_2',
				depth: 'deep',
				status: 'queued',
				startedAt: null,
				finishedAt: null,
			},
		]);
	});

	it('takes a site ID from an expression in "By ID" mode', async () => {
		const result = await run(
			{ resource: 'scan', operation: 'trigger', siteId: byId('={{ $json.site }}') },
			{ items: [{ site: 'st_3' }] },
		);

		expect(JSON.parse(securityRequests()[0].body)).toEqual({ siteId: 'st_3' });
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
	});

	it('names the site when it does not exist', async () => {
		const result = await run({ resource: 'scan', operation: 'trigger', siteId: byId('st_99') });

		expect(reasonOf(result.error)).toBe('not_found');
		expect(result.error?.message).toContain('"st_99"');
		expect(result.error?.httpCode).toBe('404');
	});
});
