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
import { securitySites } from './sandboxApi.mts';
import { addThreat, chatMessages, chatText, serviceRequests } from './sandboxControl.mts';

let client: N8nClient;
let threats: Array<Record<string, unknown> & { id: string }>;
let executionsAtStart: number;

async function triageExecutions(): Promise<ExecutionDetail[]> {
	const executions = await executionDetails(
		client,
		await client.executions(e2e().workflowIds.threatTriage),
	);
	return executions.sort((a, b) => Number(a.id) - Number(b.id));
}

function emittedThreatIds(executions: ExecutionDetail[]): unknown[] {
	return executions.flatMap((execution) =>
		nodeOutput(execution, 'New threat').map((threat) => threat.id),
	);
}

/** Waits until the trigger polled the threat list after `since` (epoch ms): nothing else reads it. */
async function waitForTriggerPoll(since: number): Promise<void> {
	await waitForListPoll(serviceRequests, {
		service: 'security',
		path: '/threats',
		token: e2e().sandbox.securityKey,
		since,
	});
}

beforeAll(async () => {
	client = ownerClient();
	// After a poll that saw the threats present at publishing (usually while the other files ran).
	await waitForTriggerPoll(e2e().publishedAt);
	await delay(SETTLE_MS);
	executionsAtStart = (await client.executions(e2e().workflowIds.threatTriage)).length;
	const [first, second, third] = (await securitySites()).map((site) => site.id);
	threats = [
		await addThreat({ siteId: first, severity: 'high', title: 'E2E webshell in uploads' }),
		await addThreat({ siteId: second, severity: 'low', title: 'E2E outdated jQuery' }),
		await addThreat({ siteId: third, severity: 'critical', title: 'E2E admin account takeover' }),
	];
});

describe('the published Security Service Trigger (example: threat triage)', () => {
	it('emitted nothing for the threats that existed when it was published', () => {
		expect(executionsAtStart).toBe(0);
	});

	it('picks up the threats created after publishing, scans the sites of the severe ones and posts them to chat', async () => {
		const ids = threats.map((threat) => threat.id);
		const executions = await waitFor(
			'the trigger to emit the new threats',
			async () => {
				const found = await triageExecutions();
				const done = found.every(
					(execution) => execution.status !== 'running' && execution.status !== 'new',
				);
				return done && ids.every((id) => emittedThreatIds(found).includes(id)) ? found : undefined;
			},
			{ timeoutMs: TWO_POLLS_MS, intervalMs: 1000 },
		);
		expect(executions.map((execution) => execution.status)).toEqual(
			executions.map(() => 'success'),
		);
		expect(emittedThreatIds(executions).sort()).toEqual([...ids].sort());

		const severe = threats.filter((threat) => threat.severity !== 'low');
		const filtered = executions.flatMap((execution) => nodeOutput(execution, 'High severity'));
		expect(filtered.map((threat) => threat.id).sort()).toEqual(
			severe.map((threat) => threat.id).sort(),
		);
		const scans = executions.flatMap((execution) => nodeOutput(execution, 'Scan the site'));
		expect(scans.map((scan) => scan.siteId).sort()).toEqual(
			severe.map((threat) => threat.siteId).sort(),
		);

		const messages = (await chatMessages()).map(chatText);
		for (const threat of severe) {
			const scan = scans.find((candidate) => candidate.siteId === threat.siteId);
			expect(messages).toContain(
				`:shield: ${String(threat.severity).toUpperCase()} threat on site ${threat.siteId}: ${threat.title} (threat ${threat.id}). Scan ${scan?.id} started.`,
			);
		}
		expect(messages.join('\n')).not.toContain(threats[1].id);
	});

	it('emits each new threat once: a later poll starts nothing', async () => {
		const before = await triageExecutions();
		// The new threats' executions (the test above): a later poll is one after the last stopped.
		expect(emittedThreatIds(before).sort()).toEqual(threats.map((threat) => threat.id).sort());
		await waitForTriggerPoll(lastStopped(before));
		await delay(SETTLE_MS);
		const after = await triageExecutions();
		expect(after.map((execution) => execution.id)).toEqual(before.map((execution) => execution.id));
	});
});
