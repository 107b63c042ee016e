import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runPoll, triggerNode, type PollRun } from '../../support/harness/runPoll.ts';
import { packageNode, runWorkflow } from '../../support/harness/runWorkflow.ts';
import { requestsTo, withSandbox } from '../../support/harness/sandbox.ts';

const sandbox = withSandbox();

const NODE_NAME = 'Security Trigger';

function credentials(baseUrl = sandbox.securityUrl) {
	return { securityServiceApi: { baseUrl, apiKey: sandbox.securityKey } };
}

function poll(
	parameters: INodeParameters,
	staticData?: IDataObject,
	options: { mode?: 'trigger' | 'manual'; baseUrl?: string; activation?: 'activate' | 'init' } = {},
): Promise<PollRun> {
	return runPoll({
		node: triggerNode('securityServiceTrigger', parameters, 'securityServiceApi', NODE_NAME),
		credentials: credentials(options.baseUrl),
		staticData,
		mode: options.mode,
		activation: options.activation,
	});
}

function ids(run: PollRun): unknown[] {
	return run.items.map((item) => item.json.id);
}

function memoryIds(staticData: IDataObject | undefined): string[] {
	const node = staticData?.[`node:${NODE_NAME}`] as { seen?: { ids: string[] } } | undefined;
	return node?.seen?.ids ?? [];
}

const threats = { event: 'newThreat' };

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
		expect(memoryIds(scans.staticData)).toEqual(['scn_4', 'scn_3', 'scn_2', 'scn_1']);
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
});

describe('Security Service Trigger: manual test run', () => {
	it('emits the newest record through the editor’s manual execution, leaving the memory alone', async () => {
		sandbox.addThreat({ title: 'Newest', detectedAt: new Date(Date.now() + 60_000).toISOString() });
		const node = packageNode('securityServiceTrigger', threats, {
			name: NODE_NAME,
			credentials: ['securityServiceApi'],
		});
		const result = await runWorkflow(
			{ nodes: [node], connections: {} },
			{ credentials: credentials(), mode: 'manual' },
		);

		expect(result.run.status).toBe('success');
		expect(result.output(NODE_NAME).map((item) => item.json)).toEqual([
			expect.objectContaining({ id: 'thr_28', title: 'Newest' }),
		]);
		// The run may look at the memory (none here) but writes nothing: n8n's change flag stays off.
		const nodeData = result.workflow.staticData[`node:${NODE_NAME}`] as IDataObject;
		expect(Object.keys(nodeData)).toEqual([]);
		expect(nodeData.__dataChanged).toBe(false);
	});

	it('picks the newest by ID when records carry no usable date', async () => {
		sandbox.addScan({ status: 'queued', startedAt: null });
		const scans = await poll({ event: 'newScan' }, undefined, { mode: 'manual' });
		expect(ids(scans)).toEqual(['scn_5']);

		const updates = await poll({ event: 'newUpdate' }, undefined, { mode: 'manual' });
		expect(ids(updates)).toEqual(['upd_5']);
	});

	it('applies the filters and emits nothing when nothing matches', async () => {
		const high = await poll({ event: 'newThreat', filters: { severity: 'high' } }, undefined, {
			mode: 'manual',
		});
		expect(high.items).toHaveLength(1);
		expect(high.items[0].json.severity).toBe('high');

		const none = await poll({ event: 'newThreat', filters: { severity: 'unknown' } }, undefined, {
			mode: 'manual',
		});
		expect(none.result).toBeNull();
	});
});

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
