import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	ids,
	memoryOf,
	pollTriggerSandbox,
	sitesServer,
	spyOnWarnings,
	staticDataSize,
	succeeding,
} from './pollTrigger.mts';

const { sandbox, poll, control, counted } = pollTriggerSandbox({
	limits: { requestsPerMinute: 1_000_000 },
});
const statusChanged = { event: 'siteStatusChanged' };

async function setStatus(siteId: string, status: string): Promise<void> {
	await control(`/performance/sites/${siteId}/status`, { status });
}

describe('Performance Service Poll Trigger: site status changes', () => {
	it('activation emits nothing; a change is emitted once with the previous status', async () => {
		const activation = await succeeding(poll(statusChanged));
		expect(activation.result).toBeNull();

		await setStatus('site_1', 'CRITICAL');
		const next = await succeeding(poll(statusChanged, activation.staticData));
		expect(next.items).toEqual([
			{
				json: expect.objectContaining({
					id: 'site_1',
					status: 'CRITICAL',
					previousStatus: 'HEALTHY',
				}) as IDataObject,
				pairedItem: { item: 0 },
			},
		]);
		expect((await succeeding(poll(statusChanged, next.staticData))).result).toBeNull();
	});

	it('a site listed for the first time emits nothing; its later changes do', async () => {
		const activation = await succeeding(poll(statusChanged));
		const { sites } = (await control('/performance/sites', { status: 'HEALTHY' })) as {
			sites: Array<{ id: string }>;
		};
		const listed = await succeeding(poll(statusChanged, activation.staticData));
		expect(listed.result).toBeNull();
		await setStatus(sites[0].id, 'DEGRADED');
		const changed = await succeeding(poll(statusChanged, listed.staticData));
		expect(ids(changed)).toEqual([sites[0].id]);
	});

	it('emits only changes to the chosen statuses, remembering the others', async () => {
		const parameters = { ...statusChanged, filters: { status: 'critical' } };
		const activation = await succeeding(poll(parameters));
		await setStatus('site_1', 'DEGRADED');
		const refused = await succeeding(poll(parameters, activation.staticData));
		expect(refused.result).toBeNull();
		await setStatus('site_1', 'CRITICAL');
		const wanted = await succeeding(poll(parameters, refused.staticData));
		expect(wanted.items.map(({ json }) => [json.id, json.previousStatus, json.status])).toEqual([
			['site_1', 'DEGRADED', 'CRITICAL'],
		]);
	});

	it('a failed poll emits nothing and loses nothing; the memory survives a restart', async () => {
		const activation = await succeeding(poll(statusChanged));
		await setStatus('site_2', 'HEALTHY');
		sandbox.setFault({ service: 'performance', path: '/sites', kind: 'status500', times: 1 });
		const failed = await poll(statusChanged, activation.staticData);
		expect(failed.error).toBeDefined();
		expect(failed.items).toEqual([]);
		expect(failed.saved).toBe(false);

		const savedInDatabase = JSON.parse(JSON.stringify(failed.staticData)) as IDataObject;
		const afterRestart = await succeeding(
			poll(statusChanged, savedInDatabase, { activation: 'init' }),
		);
		expect(afterRestart.items.map(({ json }) => [json.id, json.previousStatus])).toEqual([
			['site_2', 'DEGRADED'],
		]);
	});

	it('with 1,000 sites a poll costs one request and the memory stays small', async () => {
		await control('/performance/sites', { count: 996, status: 'HEALTHY' });
		const activation = await succeeding(poll(statusChanged));
		await setStatus('site_500', 'CRITICAL');
		await setStatus('site_999', 'DEGRADED');
		const { value: run, requests } = await counted(() =>
			succeeding(poll(statusChanged, activation.staticData)),
		);
		expect(requests).toBe(1);
		expect(ids(run).sort()).toEqual(['site_500', 'site_999']);
		const { value: quiet, requests: quietRequests } = await counted(() =>
			succeeding(poll(statusChanged, run.staticData)),
		);
		expect(quiet.result).toBeNull();
		expect(quietRequests).toBe(1);
		const statuses = memoryOf(run.staticData)?.statuses as Record<string, string[]>;
		expect(Object.values(statuses).flat()).toHaveLength(1000);
		expect(staticDataSize(run.staticData)).toBeLessThan(15_000);
	});

	it('a failed poll leaves the memory the running process goes on with as it was', async () => {
		const activation = await succeeding(poll(statusChanged));
		await setStatus('site_2', 'HEALTHY');
		sandbox.setFault({ service: 'performance', path: '/sites', kind: 'status500', times: 1 });
		const failed = await poll(statusChanged, activation.liveStaticData);
		expect(failed.error).toBeDefined();
		expect(failed.liveStaticData).toEqual(activation.liveStaticData);
		const next = await succeeding(poll(statusChanged, failed.liveStaticData));
		expect(next.items.map(({ json }) => [json.id, json.previousStatus])).toEqual([
			['site_2', 'DEGRADED'],
		]);
	});

	it('a manual run emits the newest matching site with its remembered status', async () => {
		await setStatus('site_3', 'DEGRADED');
		await setStatus('site_4', 'HEALTHY');
		const parameters = { ...statusChanged, filters: { status: 'CRITICAL' } };
		const activation = await succeeding(poll(parameters));
		await setStatus('site_1', 'CRITICAL');
		await setStatus('site_3', 'CRITICAL');
		const manual = await succeeding(poll(parameters, activation.staticData, { mode: 'manual' }));
		expect(manual.items.map(({ json }) => [json.id, json.status, json.previousStatus])).toEqual([
			['site_3', 'CRITICAL', 'DEGRADED'],
		]);
		expect(manual.liveStaticData).toEqual(activation.staticData);

		const withoutMemory = await succeeding(poll(parameters, undefined, { mode: 'manual' }));
		expect(withoutMemory.items.map(({ json }) => json.previousStatus)).toEqual([null]);
	});

	describe('a list longer than the trigger watches', () => {
		const sites = Array.from({ length: 5002 }, (_, index) => ({
			id: `s${index}`,
			status: 'HEALTHY',
		}));
		const baseUrl = sitesServer(() => sites);
		const warnings = spyOnWarnings();

		it("watches 5,000 sites and warns in n8n's log how many more are listed", async () => {
			warnings.mockClear();
			const activation = await succeeding(poll(statusChanged, undefined, { baseUrl: baseUrl() }));
			const statuses = memoryOf(activation.staticData)?.statuses as Record<string, string[]>;
			expect(statuses.HEALTHY).toHaveLength(5000);
			expect(warnings).toHaveBeenCalledWith(
				'Performance Poll Trigger: the list holds 2 more sites than the trigger watches; their status changes are not emitted.',
			);
		});
	});
});
