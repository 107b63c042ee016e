import { beforeAll, describe, expect, it } from 'vitest';

import type { ExecutionDetail, N8nClient } from '../support/n8n/client.mts';
import {
	lastStopped,
	SETTLE_MS,
	TWO_POLLS_MS,
	waitForListPoll,
} from '../support/n8n/listPolls.mts';
import { delay, waitFor } from '../support/n8n/processes.mts';
import { e2e, ownerClient } from './context.mts';
import { executionDetails, nodeOutput } from './executions.mts';
import { chatMessages, chatText, serviceRequests, setSiteStatus } from './sandboxControl.mts';

let client: N8nClient;
let site: { id: string; name: string; hostname: string };
let fileStartedAt: number;

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

/**
 * Waits until the trigger polled the site list after `since` (epoch ms). Its credential's token
 * (the read-write one) also reads that list in the other files' workflows, the editor's pickers and
 * their direct calls; files run one at a time, so only a read after this file started is the
 * trigger's.
 */
async function waitForTriggerPoll(since: number): Promise<void> {
	await waitForListPoll(serviceRequests, {
		service: 'performance',
		path: '/sites',
		token: e2e().sandbox.tokens.readWrite,
		since: Math.max(since, fileStartedAt),
	});
}

beforeAll(async () => {
	fileStartedAt = Date.now();
	client = ownerClient();
	// Other e2e files reoptimize seeded sites (their statuses change too): this test watches a site
	// of its own, added by the global setup before this file started. The trigger's next poll lists
	// it (at the latest) and only remembers its status.
	site = e2e().watchedSite;
	await waitForTriggerPoll(fileStartedAt);
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
		// The change's execution (the test above): a later poll is one after it stopped.
		expect(before).toHaveLength(1);
		await waitForTriggerPoll(lastStopped(before));
		await delay(SETTLE_MS);
		const after = await executionsFor(site.id);
		expect(after.map((execution) => execution.id)).toEqual(before.map((execution) => execution.id));
	});
});
