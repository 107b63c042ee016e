import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { N8nClient } from '../support/n8n/client.mts';
import { waitFor } from '../support/n8n/processes.mts';
import { ringAboutNewThreat } from '../support/n8n/securityRings.mts';
import { e2e, ownerClient } from './context.mts';
import { nodeOutput, waitForExecution, waitForExecutions } from './executions.mts';
import { chatMessages, chatText, deliveries } from './sandboxControl.mts';
import { performanceApi, performanceSites, setSandboxOptions } from './sandboxApi.mts';

let client: N8nClient;

beforeAll(async () => {
	client = ownerClient();
});

describe('example: scheduled reoptimize of unhealthy sites', () => {
	afterAll(async () => {
		await setSandboxOptions({ limits: { reoptimizationsPerHour: 20 } });
	});

	it('lists the sites and reoptimizes each one that is not HEALTHY', async () => {
		const sites = await performanceSites();
		const unhealthy = sites.filter((site) => site.status !== 'HEALTHY').map((site) => site.id);
		expect(unhealthy.length).toBeGreaterThan(0);
		expect(unhealthy.length).toBeLessThan(sites.length);

		const executionId = await client.runManually(e2e().workflowIds.scheduledReoptimize, 'Run now');
		const execution = await waitForExecution(client, executionId);

		expect(execution.status).toBe('success');
		expect(nodeOutput(execution, 'List sites').map((site) => site.id)).toEqual(
			sites.map((site) => site.id),
		);
		expect(nodeOutput(execution, 'Not healthy').map((site) => site.status)).not.toContain(
			'HEALTHY',
		);
		const results = nodeOutput(execution, 'Reoptimize');
		expect(results).toEqual(
			unhealthy.map((siteId) => expect.objectContaining({ ok: true, queued: 4, siteId })),
		);
	});

	it('continues past sites whose hourly reoptimization limit is used up, reporting the limit per site', async () => {
		await setSandboxOptions({ limits: { reoptimizationsPerHour: 1 } });

		// This time as the editor's default "Execute workflow" does: from the schedule trigger.
		const executionId = await client.runManually(
			e2e().workflowIds.scheduledReoptimize,
			'Every 6 hours',
		);
		const execution = await waitForExecution(client, executionId);

		expect(execution.status).toBe('success');
		const results = nodeOutput(execution, 'Reoptimize');
		expect(results.length).toBeGreaterThan(0);
		for (const result of results) {
			expect(JSON.stringify(result.error)).toContain('rate_limited');
		}
	});
});

describe('example: performance alerts to chat', () => {
	it('posts each regression and the opened alert of a reoptimization to the chat webhook', async () => {
		const { workflowIds } = e2e();
		const docs = (await performanceSites()).find((site) => site.hostname === 'docs.example.com');
		if (!docs) throw new Error('The sandbox has no docs.example.com site');
		const before = (await client.executions(workflowIds.performanceAlerts)).length;

		// The sandbox's seeded "Acme Docs" scores below its target after a reoptimization.
		await performanceApi('POST', `/sites/${docs.id}/reoptimize`);

		const expectedEvents = await waitFor(
			'the regressions and the alert of the reoptimization',
			async () => {
				// Other endpoints (other test files) may receive the same events: one entry per event.
				const events = new Map<string, string>();
				for (const delivery of await deliveries()) {
					const event = JSON.parse(delivery.body) as {
						id: string;
						type: string;
						data: Record<string, unknown>;
					};
					const wanted =
						['audit.regression', 'alert.opened'].includes(event.type) &&
						JSON.stringify(event.data).includes(docs.id);
					if (wanted && delivery.status >= 200 && delivery.status < 300)
						events.set(event.id, event.type);
				}
				return events.size === 3 ? [...events.keys()] : undefined;
			},
		);
		const executions = await waitForExecutions(
			client,
			workflowIds.performanceAlerts,
			before + expectedEvents.length,
		);
		expect(executions.slice(before).map((execution) => execution.status)).toEqual(
			expectedEvents.map(() => 'success'),
		);

		// The site's status changes too: the site health example posts about that (":warning: Site …").
		const messages = (await chatMessages())
			.map(chatText)
			.filter((text) => text.includes(docs.id) && !text.startsWith(':warning: Site'));
		expect(messages).toHaveLength(3);
		expect(
			messages.filter((text) =>
				text.startsWith(':chart_with_downwards_trend: Performance regression on site'),
			),
		).toEqual([
			expect.stringMatching(
				new RegExp(`^.* ${docs.id}: (mobile|desktop) score \\d+ -> \\d+ \\(target 85\\)$`),
			),
			expect.stringMatching(
				new RegExp(`^.* ${docs.id}: (mobile|desktop) score \\d+ -> \\d+ \\(target 85\\)$`),
			),
		]);
		expect(messages).toContain(
			`:rotating_light: Alert opened on site ${docs.id}: Performance score below target 85`,
		);
	});
});

describe('example: instant threat alerts', () => {
	it('is published, and a call about a new threat starts one execution that posts the alert to chat', async () => {
		const workflowId = e2e().workflowIds.instantThreatAlerts;
		expect((await client.getWorkflow(workflowId)).active).toBe(true);
		// What the curl in `npm start`'s summary does.
		const { threatId, statuses, started } = await ringAboutNewThreat(
			client,
			`${e2e().sandbox.controlUrl}/security/ring`,
			JSON.stringify({ newRecords: true }),
			workflowId,
		);
		expect(statuses).toEqual([200]);
		expect(started).toHaveLength(1);

		const execution = await waitForExecution(client, started[0].id);
		expect(execution.status).toBe('success');
		const emitted = nodeOutput(execution, 'New threat');
		expect(emitted).toEqual([expect.objectContaining({ id: threatId })]);
		const [threat] = emitted;
		expect((await chatMessages()).map(chatText)).toContain(
			`:zap: ${String(threat.severity).toUpperCase()} threat on site ${String(threat.siteId)}: ${String(threat.title)} (threat ${threatId}, detected ${String(threat.detectedAt)})`,
		);
	});
});
