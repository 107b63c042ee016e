import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { callsTo } from '../../support/harness/sandbox.mts';
import {
	ids,
	memoryOf,
	pollTriggerSandbox,
	sitesServer,
	staticDataSize,
	succeeding,
} from './pollTrigger.mts';

const { sandbox, poll, control, counted } = pollTriggerSandbox({
	limits: { requestsPerMinute: 1_000_000 },
});
const newSite = { event: 'newSite' };

async function addSites(count: number, status = 'PENDING'): Promise<string[]> {
	const { sites } = (await control('/performance/sites', { count, status })) as {
		sites: Array<{ id: string }>;
	};
	return sites.map(({ id }) => id);
}

describe('Performance Service Poll Trigger: new sites', () => {
	it('activation emits nothing for the sites that exist; each new site is emitted once', async () => {
		const activation = await succeeding(poll(newSite));
		expect(activation.result).toBeNull();
		expect(activation.saved).toBe(true);
		expect(callsTo(sandbox, 'performance')).toEqual([
			{
				method: 'GET',
				path: '/sites',
				query: {},
				auth: `Bearer ${sandbox.tokens.readOnly}`,
			},
		]);

		const [added] = await addSites(1);
		const next = await succeeding(poll(newSite, activation.staticData));
		expect(ids(next)).toEqual([added]);
		expect(next.items[0]).toEqual({
			json: {
				id: added,
				name: `Site ${added}`,
				hostname: `${added.replace('_', '-')}.example.com`,
				status: 'PENDING',
				audits: [],
			},
			pairedItem: { item: 0 },
		});
		expect((await succeeding(poll(newSite, next.staticData))).result).toBeNull();
	});

	it('a failed poll emits nothing and loses nothing', async () => {
		const activation = await succeeding(poll(newSite));
		const [added] = await addSites(1);
		sandbox.setFault({ service: 'performance', path: '/sites', kind: 'status500', times: 1 });
		const failed = await poll(newSite, activation.staticData);
		expect(failed.error?.message).toContain('internal_error');
		expect(failed.items).toEqual([]);
		expect(failed.saved).toBe(false);
		const after = await succeeding(poll(newSite, failed.staticData));
		expect(ids(after)).toEqual([added]);
	});

	it('a failed poll leaves the memory the running process goes on with as it was, across many polls', async () => {
		let live = (await succeeding(poll(newSite))).liveStaticData;
		const emitted: string[] = [];
		const added: string[] = [];
		for (let round = 1; round <= 6; round++) {
			added.push(...(await addSites(1)));
			const failing = round % 2 === 0;
			if (failing) {
				sandbox.setFault({ service: 'performance', path: '/sites', kind: 'status500', times: 1 });
			}
			const run = await poll(newSite, live);
			expect(run.error !== undefined).toBe(failing);
			if (failing) expect(run.liveStaticData).toEqual(live);
			emitted.push(...ids(run));
			live = run.liveStaticData;
		}
		emitted.push(...ids(await succeeding(poll(newSite, live))));
		expect(emitted).toEqual(added);
	});

	it('remembers across a restart (static data reloaded from the database)', async () => {
		const activation = await succeeding(poll(newSite));
		const savedInDatabase = JSON.parse(JSON.stringify(activation.staticData)) as IDataObject;
		const [added] = await addSites(1);
		const afterRestart = await succeeding(poll(newSite, savedInDatabase, { activation: 'init' }));
		expect(ids(afterRestart)).toEqual([added]);
		const again = await succeeding(poll(newSite, afterRestart.staticData, { activation: 'init' }));
		expect(again.result).toBeNull();
	});

	it('a steady poll costs one request, also with 1,000 sites; the memory stays small', async () => {
		await addSites(996);
		const activation = await succeeding(poll(newSite));
		let staticData = activation.staticData;
		for (const round of [1, 2]) {
			const added = await addSites(round);
			const { value: run, requests } = await counted(() => succeeding(poll(newSite, staticData)));
			expect(ids(run)).toEqual(added);
			expect(requests).toBe(1);
			staticData = run.staticData;
		}
		const { value: quiet, requests } = await counted(() => succeeding(poll(newSite, staticData)));
		expect(quiet.result).toBeNull();
		expect(requests).toBe(1);
		expect((memoryOf(staticData)?.seenIds as string[]).length).toBe(1000);
		expect(staticDataSize(staticData)).toBeLessThan(15_000);
	});

	it('a manual run emits the newest site and leaves the memory alone', async () => {
		const [added] = await addSites(1);
		const manual = await succeeding(poll(newSite, undefined, { mode: 'manual' }));
		expect(ids(manual)).toEqual([added]);
		expect(memoryOf(manual.liveStaticData)).toBeUndefined();
	});
});

describe('Performance Service Poll Trigger: new sites in a list in either order', () => {
	let sites: IDataObject[] = [];
	const baseUrl = sitesServer(() => sites);

	const site = (n: number): IDataObject => ({ id: `site_${n}`, name: `S${n}`, status: 'HEALTHY' });

	it.each([
		['oldest first', (list: IDataObject[]) => list],
		['newest first', (list: IDataObject[]) => [...list].reverse()],
	])('%s: emits each new site once', async (_order, arrange) => {
		sites = arrange([1, 2, 3].map(site));
		const activation = await succeeding(poll(newSite, undefined, { baseUrl: baseUrl() }));
		expect(activation.result).toBeNull();
		sites = arrange([1, 2, 3, 4, 5].map(site));
		const next = await succeeding(poll(newSite, activation.staticData, { baseUrl: baseUrl() }));
		expect(ids(next).sort()).toEqual(['site_4', 'site_5']);
		sites = arrange([1, 2, 3, 4, 5, 6].map(site));
		const third = await succeeding(poll(newSite, next.staticData, { baseUrl: baseUrl() }));
		expect(ids(third)).toEqual(['site_6']);
	});
});
