import { describe, expect, it } from 'vitest';

import { serviceAnswer, withSandbox } from '../../support/harness/sandbox.mts';

const sandbox = withSandbox();

async function control(path: string, body: unknown): Promise<{ status: number; body: unknown }> {
	const response = await fetch(`${sandbox.controlUrl}${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	return { status: response.status, body: await response.json() };
}

describe('sandbox control: performance sites', () => {
	it('adds sites past the creation limit, each announced as site.added', async () => {
		const added = await control('/performance/sites', { count: 7, status: 'HEALTHY' });
		expect(added.status).toBe(201);
		const { sites } = (await serviceAnswer(sandbox, 'performance', '/sites')) as {
			sites: Array<{ id: string; status: string }>;
		};
		expect(sites).toHaveLength(4 + 7);
		expect(sites.slice(4).every((site) => site.status === 'HEALTHY')).toBe(true);
		expect((await control('/performance/sites', { count: 0 })).status).toBe(400);
	});

	it("sets a site's status and refuses unknown sites and statuses", async () => {
		expect(await control('/performance/sites/site_1/status', { status: 'DEGRADED' })).toEqual({
			status: 200,
			body: { id: 'site_1', status: 'DEGRADED' },
		});
		const site = (await serviceAnswer(sandbox, 'performance', '/sites/site_1')) as {
			status: string;
		};
		expect(site.status).toBe('DEGRADED');
		expect((await control('/performance/sites/site_9/status', { status: 'HEALTHY' })).status).toBe(
			404,
		);
		expect((await control('/performance/sites/site_1/status', { status: 'fine' })).status).toBe(
			400,
		);
	});

	it('completes an audit that the audit list shows first', async () => {
		const added = await control('/performance/sites/site_2/audits', {
			strategy: 'desktop',
			score: 41,
		});
		expect(added.status).toBe(201);
		const { audits } = (await serviceAnswer(sandbox, 'performance', '/audits-list?limit=1')) as {
			audits: unknown[];
		};
		expect(audits).toEqual([added.body]);
		expect(added.body).toMatchObject({ siteId: 'site_2', strategy: 'desktop', score: 41 });
	});
});
