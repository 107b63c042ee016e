import { describe, expect, it } from 'vitest';

import { requestsTo } from '../../support/harness/sandbox.mts';
import { ids, threats, triggerSandbox } from './securityTrigger.mts';

const { sandbox, poll } = triggerSandbox(
	{ limits: { securityRequestsPerMinute: 1_000_000 } },
	{ plan: 'enterprise' },
);

/** The queries of the security requests the sandbox received, in order. */
function queries(): unknown[] {
	return requestsTo(sandbox, 'security').map(({ path, query }) => ({ path, query }));
}

describe('Security Service Trigger: reading its parameters', () => {
	it('refuses an event it does not know, naming the ones it has, before any request', async () => {
		const run = await poll({ event: 'newVirus' });

		expect(run.error?.message).toBe('The event "newVirus" is not supported');
		expect((run.error as Error & { description?: string }).description).toBe(
			'Choose one of: New Threat, New Scan, New Update, New Report.',
		);
		expect(run.saved).toBe(false);
		expect(requestsTo(sandbox, 'security')).toEqual([]);
	});

	it('a filter left empty, or holding only commas and spaces, filters nothing', async () => {
		const parameters = { ...threats, filters: { severity: '', status: ' , ,' } };
		const activation = await poll(parameters);
		const low = sandbox.addThreat({ severity: 'low', status: 'resolved' });
		const high = sandbox.addThreat({ severity: 'high' });

		const next = await poll(parameters, activation.staticData);
		expect(next.error).toBeUndefined();
		expect(ids(next)).toEqual([low.id, high.id]);
		expect(queries()).toEqual([
			{ path: '/threats', query: {} },
			{ path: '/threats', query: {} },
		]);
	});

	it('takes the values of a filter trimmed and in any case', async () => {
		const parameters = { ...threats, filters: { severity: ' HIGH , Critical ' } };
		const activation = await poll(parameters);
		sandbox.addThreat({ severity: 'low' });
		const high = sandbox.addThreat({ severity: 'high' });
		const critical = sandbox.addThreat({ severity: 'critical' });

		const next = await poll(parameters, activation.staticData);
		expect(ids(next)).toEqual([high.id, critical.id]);
		expect(next.items.map(({ json }) => json.severity)).toEqual(['high', 'critical']);
		expect(queries()[1]).toEqual({ path: '/threats', query: {} });
	});

	it('matches a filter that an expression gives as a number against the field as text', async () => {
		const parameters = { ...threats, filters: { siteId: '={{ 40 + 2 }}' } };
		const activation = await poll(parameters);
		sandbox.addThreat({ siteId: 'st_1' });
		const numbered = sandbox.addThreat({ siteId: 42 });
		const asText = sandbox.addThreat({ siteId: '42' });

		const next = await poll(parameters, activation.staticData);
		expect(next.error).toBeUndefined();
		expect(ids(next)).toEqual([numbered.id, asText.id]);
		expect(queries()[1]).toEqual({ path: '/threats', query: {} });
	});

	it('a manual run emits the newest record as one item paired with item 0', async () => {
		const newest = sandbox.addThreat({
			title: 'Newest',
			detectedAt: new Date(Date.now() + 60_000).toISOString(),
		});

		const manual = await poll(threats, undefined, { mode: 'manual' });
		expect(manual.result).toEqual([[{ json: newest, pairedItem: { item: 0 } }]]);
		expect(queries()).toEqual([{ path: '/threats', query: {} }]);
	});

	it('a poll budget n8n gives as NaN counts as none: the poll reads the list to its end', async () => {
		sandbox.setOptions({ securityListShape: 'pageNumbers', securityListOrder: 'oldestFirst' });
		const activation = await poll(threats, undefined, { pollBudgetMs: Number.NaN });
		const added = Array.from({ length: 45 }, () => sandbox.addThreat().id as string);
		sandbox.requests.length = 0;

		const run = await poll(threats, activation.staticData, { pollBudgetMs: Number.NaN });
		expect(run.error).toBeUndefined();
		expect(ids(run)).toEqual(added);
		const pages = requestsTo(sandbox, 'security').map(({ query }) => query.page ?? '1');
		// The list's first page (the order is only shown: both ends are read), then from the last page
		// that held records to the end.
		expect(pages).toEqual(['1', '3', '4', '5', '6', '7', '8']);
	});
});
