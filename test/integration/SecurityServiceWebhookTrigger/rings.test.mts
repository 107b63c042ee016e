import { describe, expect, it } from 'vitest';

import { captureLogs } from '../../support/harness/logs.mts';
import { callsTo, requestsTo } from '../../support/harness/sandbox.mts';
import { threats } from '../SecurityServiceTrigger/securityTrigger.mts';
import {
	emittedIds,
	emittedItems,
	listReads,
	ring,
	webhookTriggerSandbox,
} from './webhookTrigger.mts';

const { sandbox, poll, publish } = webhookTriggerSandbox();
const logged = captureLogs();

describe('Security Service Webhook Trigger: rings', () => {
	it('emits what the Security Service Trigger emits for the same records, in one run', async () => {
		const { listener } = await publish(threats);
		const quiet = logged();
		const first = await poll(threats);
		sandbox.addThreat({ severity: 'high', title: 'Webshell' });
		sandbox.addThreat({ severity: 'low', title: 'Outdated plugin' });

		expect((await ring(listener)).status).toBe(200);
		await listener.waitForCalls(1);
		const polled = await poll(threats, first.staticData);
		expect(polled.items).toHaveLength(2);
		expect(emittedItems(listener).map((item) => item.json)).toEqual(
			polled.items.map((item) => item.json),
		);
		// pairedItem too: the items the node hands to n8n are the poll trigger's.
		const [{ result }] = listener.calls;
		expect(result?.workflowData).toEqual([polled.items]);
		expect(listener.runs()).toHaveLength(1);

		const reads = listReads(sandbox).length;
		const nothingNew = await ring(listener);
		expect(nothingNew).toEqual({ status: 200, body: { received: true } });
		await listener.waitForCalls(2);
		expect(listReads(sandbox)).toHaveLength(reads + 1);
		expect(listener.runs()).toHaveLength(1);
		// Rings that read the list fine log nothing.
		expect(logged()).toBe(quiet);
	});

	it.each([
		['JSON', '{"event":"threat.detected"}', 'application/json'],
		['invalid JSON', 'not json at all {', 'application/json'],
		['text', 'something changed', 'text/plain'],
		['an empty body', '', 'application/json'],
	])('a ring with %s reads the list and emits what is new', async (_, body, contentType) => {
		const { listener } = await publish();
		const added = sandbox.addThreat().id;
		const before = requestsTo(sandbox, 'security').length;

		expect((await ring(listener, body, { 'content-type': contentType })).status).toBe(200);
		await listener.waitForCalls(1);
		expect(callsTo(sandbox, 'security').slice(before)).toEqual([
			{ method: 'GET', path: '/threats', query: {}, auth: `Bearer ${sandbox.securityKey}` },
		]);
		expect(emittedIds(listener)).toEqual([added]);
	});

	it('nothing of a forged ring appears in an item; with nothing new it starts no run', async () => {
		const { listener } = await publish();
		const forged = JSON.stringify({
			id: 'thr_forged',
			event: 'threat.detected',
			severity: 'critical',
			data: { id: 'thr_forged', severity: 'critical', title: 'Forged threat' },
		});
		const headers = {
			'content-type': 'application/json',
			'x-security-event': 'threat.detected',
			'x-threat-id': 'thr_forged',
			'x-forwarded-for': '10.6.6.6',
		};

		expect((await ring(listener, forged, headers)).status).toBe(200);
		await listener.waitForCalls(1);
		expect(listener.runs()).toHaveLength(0);

		sandbox.addThreat({ severity: 'low' });
		expect((await ring(listener, forged, headers)).status).toBe(200);
		await listener.waitForCalls(2);
		const emitted = JSON.stringify(emittedItems(listener));
		expect(emittedIds(listener)).toEqual(['thr_28']);
		expect(emitted).not.toMatch(/forged|10\.6\.6\.6/i);
		expect(emittedItems(listener)[0].json.severity).toBe('low');
		expect(logged()).not.toMatch(/forged|10\.6\.6\.6/i);
		expect(logged()).not.toContain(sandbox.securityKey);
	});

	it.each([
		['newThreat', '/threats', () => sandbox.addThreat(), 'thr_28'],
		['newScan', '/scans', () => sandbox.addScan(), 'scn_5'],
		['newUpdate', '/updates', () => sandbox.addUpdate(), 'upd_6'],
		['newReport', '/reports', () => sandbox.addReport(), 'rep_4'],
	])('%s reads %s', async (event, path, add, newId) => {
		const { listener } = await publish({ event });
		add();
		await ring(listener);
		await listener.waitForCalls(1);

		expect(emittedIds(listener)).toEqual([newId]);
		expect(requestsTo(sandbox, 'security').map((request) => request.path)).toEqual([path, path]);
	});

	it('emits only records the filters accept; a ring with none of them starts no run', async () => {
		const { listener } = await publish({ event: 'newThreat', filters: { severity: 'critical' } });
		sandbox.addThreat({ severity: 'low' });
		await ring(listener);
		await listener.waitForCalls(1);
		expect(listener.runs()).toHaveLength(0);

		const critical = sandbox.addThreat({ severity: 'critical' }).id;
		sandbox.addThreat({ severity: 'high' });
		await ring(listener);
		await listener.waitForCalls(2);
		expect(emittedIds(listener)).toEqual([critical]);
	});

	it('sends the query parameters with every read of the list', async () => {
		const { listener } = await publish({
			event: 'newThreat',
			queryParameters: { parameters: [{ name: 'status', value: 'open' }] },
		});
		const added = sandbox.addThreat({ status: 'open' }).id;
		await ring(listener);
		await listener.waitForCalls(1);

		expect(emittedIds(listener)).toEqual([added]);
		expect(listReads(sandbox).map((request) => request.query)).toEqual([
			{ status: 'open' },
			{ status: 'open' },
		]);
	});
});
