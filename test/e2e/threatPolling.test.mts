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
import { securityList, securitySites } from './sandboxApi.mts';
import { addThreat, chatMessages, chatText, serviceRequests } from './sandboxControl.mts';

type Threat = Record<string, unknown> & { id: string };

let client: N8nClient;
let threats: Threat[];
/** The threats dated before publishing; the other test files add theirs after it. */
let threatsAtPublish: string[];

async function triageExecutions(): Promise<ExecutionDetail[]> {
	const executions = await executionDetails(
		client,
		await client.executions(e2e().workflowIds.threatTriage),
	);
	return executions.sort((a, b) => Number(a.id) - Number(b.id));
}

function emittedThreatIds(executions: ExecutionDetail[]): string[] {
	return executions.flatMap((execution) =>
		nodeOutput(execution, 'New threat').map((threat) => String(threat.id)),
	);
}

/**
 * Waits until the trigger polled the threat list after `since` (epoch ms). The webhook triggers
 * read it too, but only when a threat is added: none is added while this file waits.
 */
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
	threatsAtPublish = (await securityList<Threat>('/threats'))
		.filter((threat) => Date.parse(String(threat.detectedAt)) < e2e().publishedAt)
		.map((threat) => threat.id);
	const [first, second, third] = (await securitySites()).map((site) => site.id);
	threats = [
		await addThreat({ siteId: first, severity: 'high', title: 'E2E webshell in uploads' }),
		await addThreat({ siteId: second, severity: 'low', title: 'E2E outdated jQuery' }),
		await addThreat({ siteId: third, severity: 'critical', title: 'E2E admin account takeover' }),
	];
});

describe('the published Security Service Trigger (example: threat triage)', () => {
	it('emitted nothing for the threats that existed when it was published', async () => {
		expect(threatsAtPublish.length).toBeGreaterThan(0);
		const emitted = emittedThreatIds(await triageExecutions());
		expect(emitted.filter((id) => threatsAtPublish.includes(id))).toEqual([]);
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
		// Each once; the threats other test files added may be among the executions too.
		const emitted = emittedThreatIds(executions);
		expect(ids.map((id) => emitted.filter((other) => other === id).length)).toEqual(
			ids.map(() => 1),
		);

		const severe = threats.filter((threat) => threat.severity !== 'low');
		const ours = executions.filter((execution) =>
			emittedThreatIds([execution]).some((id) => ids.includes(id)),
		);
		const filtered = ours.flatMap((execution) => nodeOutput(execution, 'High severity'));
		expect(filtered.map((threat) => threat.id).sort()).toEqual(
			severe.map((threat) => threat.id).sort(),
		);
		const scans = ours.flatMap((execution) => nodeOutput(execution, 'Scan the site'));
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
		const emitted = emittedThreatIds(before);
		expect(threats.every((threat) => emitted.includes(threat.id))).toBe(true);
		await waitForTriggerPoll(lastStopped(before));
		await delay(SETTLE_MS);
		const after = await triageExecutions();
		expect(after.map((execution) => execution.id)).toEqual(before.map((execution) => execution.id));
	});
});
