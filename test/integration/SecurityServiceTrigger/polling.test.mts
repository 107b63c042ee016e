import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { requestsTo } from '../../support/harness/sandbox.mts';
import { ids, memoryIds, threats, triggerSandbox } from './securityTrigger.mts';

const { sandbox, poll } = triggerSandbox();

describe('Security Service Trigger: polling', () => {
	it('first activation emits nothing and remembers what exists', async () => {
		const first = await poll(threats);

		expect(first.error).toBeUndefined();
		expect(first.result).toBeNull();
		expect(first.saved).toBe(true);
		expect(memoryIds(first.staticData)).toHaveLength(27);
		const [request] = requestsTo(sandbox, 'security');
		expect(request).toMatchObject({ method: 'GET', path: '/threats', query: {} });
		expect(request.headers.authorization).toBe(`Bearer ${sandbox.securityKey}`);
	});

	it('the next poll emits the two new records once, in list order', async () => {
		const first = await poll(threats);
		sandbox.addThreat({ severity: 'high', title: 'Webshell' });
		sandbox.addThreat({ severity: 'low', title: 'Outdated plugin' });

		const second = await poll(threats, first.staticData);
		expect(ids(second)).toEqual(['thr_28', 'thr_29']);
		expect(second.items[0].json).toMatchObject({
			id: 'thr_28',
			severity: 'high',
			title: 'Webshell',
			status: 'open',
		});
		expect(second.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);

		const third = await poll(threats, second.staticData);
		expect(third.result).toBeNull();
	});

	it('remembers across a restart: the memory is reloaded from the saved static data', async () => {
		const first = await poll(threats);
		const savedInDatabase = JSON.parse(JSON.stringify(first.staticData)) as IDataObject;
		sandbox.addThreat();

		// n8n restarts: a new Workflow instance, static data loaded from the database, activation "init".
		const afterRestart = await poll(threats, savedInDatabase, { activation: 'init' });
		expect(ids(afterRestart)).toEqual(['thr_28']);
		const again = await poll(threats, afterRestart.staticData, { activation: 'init' });
		expect(again.result).toBeNull();
	});

	it('keeps its memory when the service changes the list shape or pages it', async () => {
		const first = await poll(threats);
		sandbox.setOptions({ securityListShape: 'bare' });
		sandbox.addThreat();
		const bare = await poll(threats, first.staticData);
		expect(ids(bare)).toEqual(['thr_28']);

		sandbox.setOptions({ securityListShape: 'paginated' });
		sandbox.addThreat();
		sandbox.requests.length = 0;
		const paged = await poll(threats, bare.staticData);
		expect(ids(paged)).toEqual(['thr_29']);
		expect(requestsTo(sandbox, 'security').map((request) => request.query.page)).toEqual([
			undefined,
			'2',
			'3',
		]);
	});

	it('starts over, emitting nothing, when the event changes', async () => {
		const first = await poll(threats);
		const scans = await poll({ event: 'newScan' }, first.staticData);

		expect(scans.result).toBeNull();
		expect([...memoryIds(scans.staticData)].sort()).toEqual(['scn_1', 'scn_2', 'scn_3', 'scn_4']);
		sandbox.addScan();
		expect(ids(await poll({ event: 'newScan' }, scans.staticData))).toEqual(['scn_5']);
	});

	it.each([
		['newScan', '/scans', () => sandbox.addScan(), 'scn_5'],
		['newUpdate', '/updates', () => sandbox.addUpdate(), 'upd_6'],
		['newReport', '/reports', () => sandbox.addReport(), 'rep_4'],
	])('%s polls %s', async (event, path, add, newId) => {
		const first = await poll({ event });
		add();
		const second = await poll({ event }, first.staticData);

		expect(ids(second)).toEqual([newId]);
		expect(requestsTo(sandbox, 'security').map((request) => request.path)).toEqual([path, path]);
	});

	it('emits only records matching the filters, the first time they match', async () => {
		const parameters = { event: 'newScan', filters: { status: 'completed, failed' } };
		const first = await poll(parameters);
		const scan = sandbox.addScan({ status: 'queued' });

		const whileQueued = await poll(parameters, first.staticData);
		expect(whileQueued.result).toBeNull();

		scan.status = 'completed';
		const completed = await poll(parameters, whileQueued.staticData);
		expect(ids(completed)).toEqual([scan.id]);
		expect(completed.items[0].json.status).toBe('completed');

		const later = await poll(parameters, completed.staticData);
		expect(later.result).toBeNull();
	});

	it('filters threats by severity', async () => {
		const parameters = { event: 'newThreat', filters: { severity: 'High,critical' } };
		const first = await poll(parameters);
		sandbox.addThreat({ severity: 'low' });
		sandbox.addThreat({ severity: 'critical' });

		expect(ids(await poll(parameters, first.staticData))).toEqual(['thr_29']);
	});

	it('passes query parameters to the service', async () => {
		await poll({
			event: 'newThreat',
			queryParameters: { parameters: [{ name: 'status', value: 'open' }] },
		});

		expect(requestsTo(sandbox, 'security')[0].query).toEqual({ status: 'open' });
	});

	it('fails a poll on a service error without touching its memory', async () => {
		const first = await poll(threats);
		sandbox.addThreat();
		sandbox.setFault({ service: 'security', path: '/threats', kind: 'status503', times: 1 });

		const failed = await poll(threats, first.staticData);
		expect(failed.error?.message).toBe(
			'The Security Service failed [service_unavailable, HTTP 503]: Service unavailable (injected fault)',
		);
		expect(failed.saved).toBe(false);
		expect(failed.staticData).toEqual(first.staticData);

		expect(ids(await poll(threats, failed.staticData))).toEqual(['thr_28']);
	});

	it('a failed poll leaves the memory the running process goes on with as it was', async () => {
		const first = await poll(threats);
		sandbox.addThreat();
		sandbox.setFault({ service: 'security', path: '/threats', kind: 'status503', times: 1 });

		const failed = await poll(threats, first.liveStaticData);
		expect(failed.error).toBeDefined();
		expect(failed.liveStaticData).toEqual(first.liveStaticData);
		expect(ids(await poll(threats, failed.liveStaticData))).toEqual(['thr_28']);
	});

	it('across many polls of one process, some failing, emits every new record once', async () => {
		let live = (await poll(threats)).liveStaticData;
		const emitted: string[] = [];
		const added: string[] = [];
		for (let round = 1; round <= 8; round++) {
			added.push(sandbox.addThreat().id as string);
			if (round % 3 === 0) {
				sandbox.setFault({ service: 'security', path: '/threats', kind: 'status503', times: 1 });
			}
			const run = await poll(threats, live);
			expect(run.error !== undefined).toBe(round % 3 === 0);
			emitted.push(...ids(run));
			live = run.liveStaticData;
		}
		expect(emitted).toEqual(added);
	});
});
