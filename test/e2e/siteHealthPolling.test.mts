import { beforeAll, describe, expect, it } from 'vitest';

import type { ExecutionDetail, N8nClient } from '../support/n8n/client.mts';
import { SETTLE_MS, TWO_POLLS_MS, waitForListPoll } from '../support/n8n/listPolls.mts';
import { delay, waitFor } from '../support/n8n/processes.mts';
import { e2e, ownerClient } from './context.mts';
import { executionDetails, nodeOutput } from './executions.mts';
import { chatMessages, chatText, serviceRequests, setSiteStatus } from './sandboxControl.mts';

let client: N8nClient;
let site: { id: string; name: string; hostname: string };

/** The example's executions whose trigger emitted `siteId`, oldest first. */
async function executionsFor(siteId: string): Promise<ExecutionDetail[]> {
	const executions = await executionDetails(
		client,
		await client.executions(e2e().workflowIds.siteHealthAlerts),
	);
	return executions
		.filter((execution) =>
			nodeOutput(execution, 'Site status changed').some((item) => item.id === siteId),
		)
		.sort((a, b) => Number(a.id) - Number(b.id));
}

/** Waits until the site list was polled after `since` (epoch ms). */
async function waitForSitesPoll(since: number): Promise<void> {
	await waitForListPoll(serviceRequests, { service: 'performance', path: '/sites', since });
}

beforeAll(async () => {
	client = ownerClient();
	// Other e2e files reoptimize seeded sites (their statuses change too): this test watches a site
	// of its own, added by the global setup. A poll listing it emits nothing and gives the trigger
	// its status; it has usually happened while the other files ran.
	site = e2e().watchedSite;
	await waitForSitesPoll(e2e().watchedSite.addedAt);
	await delay(SETTLE_MS);
});

describe('the published Performance Service Poll Trigger (example: site health alerts without a public URL)', () => {
	it('emitted nothing for the site when it was first listed', async () => {
		expect(await executionsFor(site.id)).toEqual([]);
	});

	it('starts exactly one execution when the site turns DEGRADED, with the site and its previous status, and posts to chat', async () => {
		await setSiteStatus(site.id, 'DEGRADED');
		const executions = await waitFor(
			'the trigger to emit the status change',
			async () => {
				const found = await executionsFor(site.id);
				const done = found.every(
					(execution) => execution.status !== 'running' && execution.status !== 'new',
				);
				return done && found.length > 0 ? found : undefined;
			},
			{ timeoutMs: TWO_POLLS_MS, intervalMs: 1000 },
		);
		expect(executions.map((execution) => execution.status)).toEqual(['success']);
		expect(nodeOutput(executions[0], 'Site status changed')).toEqual([
			expect.objectContaining({
				id: site.id,
				name: site.name,
				hostname: site.hostname,
				status: 'DEGRADED',
				previousStatus: 'HEALTHY',
			}),
		]);
		expect((await chatMessages()).map(chatText)).toContain(
			`:warning: Site ${site.name} (${site.hostname}, ${site.id}) is now DEGRADED, was HEALTHY`,
		);
	});

	it('emits the change once: a later poll starts nothing', async () => {
		const before = await executionsFor(site.id);
		const lastStopped = Math.max(
			...before.map((execution) => Date.parse(execution.stoppedAt ?? execution.startedAt)),
		);
		await waitForSitesPoll(lastStopped);
		await delay(SETTLE_MS);
		const after = await executionsFor(site.id);
		expect(after.map((execution) => execution.id)).toEqual(before.map((execution) => execution.id));
	});
});
