import { beforeAll, describe, expect, it } from 'vitest';

import type { ExecutionDetail, N8nClient } from '../support/n8n/client.mts';
import { delay, waitFor } from '../support/n8n/processes.mts';
import { e2e, ownerClient } from './context.mts';
import { executionDetails, nodeOutput } from './executions.mts';
import {
	addPerformanceSite,
	chatMessages,
	chatText,
	serviceRequests,
	setSiteStatus,
} from './sandboxControl.mts';

/** Polls run every minute (n8n's shortest poll interval) at a random second. */
const ONE_POLL_MS = 61_000;
const TWO_POLLS_MS = 150_000;
/** After a poll request, the time an execution it started needs to be listed. */
const SETTLE_MS = 5_000;

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

beforeAll(async () => {
	client = ownerClient();
	// Other e2e files reoptimize seeded sites (their statuses change too): this test watches a site of its own.
	site = await addPerformanceSite('HEALTHY');
	// A poll lists the new site first: that emits nothing, and gives the trigger its status.
	await delay(ONE_POLL_MS + SETTLE_MS);
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
		const pollsSince = async (since: number) =>
			(await serviceRequests()).filter(
				(request) =>
					request.service === 'performance' &&
					request.method === 'GET' &&
					request.path === '/sites' &&
					request.at > since,
			);
		await delay(ONE_POLL_MS);
		expect((await pollsSince(lastStopped)).length).toBeGreaterThan(0);
		await delay(SETTLE_MS);
		const after = await executionsFor(site.id);
		expect(after.map((execution) => execution.id)).toEqual(before.map((execution) => execution.id));
	});
});
