import type { IDataObject } from 'n8n-workflow';
import { afterEach, describe, expect, it } from 'vitest';

import { callsTo } from '../../support/harness/sandbox.mts';
import { ids, memoryOf, pollTriggerSandbox, spyOnWarnings, succeeding } from './pollTrigger.mts';

const { sandbox, poll, control, counted } = pollTriggerSandbox();
const newAudit = { event: 'newAudit' };
const warnings = spyOnWarnings();

afterEach(() => {
	warnings.mockClear();
});

async function addAudit(siteId: string, score = 90): Promise<string> {
	return (await control(`/performance/sites/${siteId}/audits`, { score })).id as string;
}

describe('Performance Service Poll Trigger: new audits', () => {
	it('activation emits nothing; each new audit is emitted once, read with one request', async () => {
		const activation = await succeeding(poll(newAudit));
		expect(activation.result).toBeNull();
		expect(callsTo(sandbox, 'performance')).toEqual([
			{
				method: 'GET',
				path: '/audits-list',
				query: { limit: '100' },
				auth: `Bearer ${sandbox.tokens.readOnly}`,
			},
		]);

		const first = await addAudit('site_1');
		const second = await addAudit('site_3', 40);
		const { value: next, requests } = await counted(() =>
			succeeding(poll(newAudit, activation.staticData)),
		);
		expect(requests).toBe(1);
		expect(ids(next)).toEqual([second, first]);
		expect(next.items[0].json).toMatchObject({ id: second, siteId: 'site_3', score: 40 });
		expect(next.items[0].pairedItem).toEqual({ item: 0 });

		const { value: quiet, requests: quietRequests } = await counted(() =>
			succeeding(poll(newAudit, next.staticData)),
		);
		expect(quiet.result).toBeNull();
		expect(quietRequests).toBe(1);
		expect(warnings).not.toHaveBeenCalled();
	});

	it('emits only the audits of the chosen site', async () => {
		const parameters = { ...newAudit, siteId: { __rl: true, mode: 'list', value: 'site_2' } };
		const activation = await succeeding(poll(parameters));
		await addAudit('site_1');
		const wanted = await addAudit('site_2');
		const next = await succeeding(poll(parameters, activation.staticData));
		expect(ids(next)).toEqual([wanted]);
	});

	it('a failed poll emits nothing and loses nothing; the memory survives a restart', async () => {
		const activation = await succeeding(poll(newAudit));
		const added = await addAudit('site_1');
		sandbox.setFault({ service: 'performance', path: '/audits-list', kind: 'status500', times: 1 });
		const failed = await poll(newAudit, activation.staticData);
		expect(failed.error).toBeDefined();
		expect(failed.items).toEqual([]);
		expect(failed.saved).toBe(false);

		const savedInDatabase = JSON.parse(JSON.stringify(failed.staticData)) as IDataObject;
		const afterRestart = await succeeding(poll(newAudit, savedInDatabase, { activation: 'init' }));
		expect(ids(afterRestart)).toEqual([added]);
	});

	it('when the list no longer reaches back to an audit seen before, emits what it sees and warns', async () => {
		const activation = await succeeding(poll(newAudit));
		const newestSeen = (memoryOf(activation.staticData)?.seenIds as string[])[0];
		const added: string[] = [];
		for (let count = 0; count < 101; count++) added.push(await addAudit('site_1'));

		const next = await succeeding(poll(newAudit, activation.staticData));
		expect(ids(next)).toEqual(added.slice(1).reverse());
		expect(warnings).toHaveBeenCalledTimes(1);
		const [message] = warnings.mock.calls[0];
		expect(message).toContain(`the newest was ${newestSeen}`);
		expect(message).toContain(`100 new audits it sees (${added[100]} … ${added[1]})`);
		expect(message).toContain('may have been missed');

		const after = await succeeding(poll(newAudit, next.staticData));
		expect(after.result).toBeNull();
		expect(warnings).toHaveBeenCalledTimes(1);
	});

	it('a manual run emits the newest audit', async () => {
		const added = await addAudit('site_4');
		const manual = await succeeding(poll(newAudit, undefined, { mode: 'manual' }));
		expect(ids(manual)).toEqual([added]);
	});
});
