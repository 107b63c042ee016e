import type { INode, INodeParameters } from 'n8n-workflow';
import { beforeEach, describe, expect, it } from 'vitest';

import { scaleSecurityPlanMinute } from '../support/harness/pacers.mts';
import { byId, reasonOf, runNode } from '../support/harness/runNode.mts';
import {
	chain,
	itemsNode,
	packageNode,
	runWorkflow,
	startNode,
	type WorkflowRun,
} from '../support/harness/runWorkflow.mts';
import { requestsTo, sandboxCredentials, withSandbox } from '../support/harness/sandbox.mts';
import type { RecordedRequest } from '../support/sandbox/index.mts';

/** A service minute lasts one real second. */
const TIME_SCALE = 60;
const sandbox = withSandbox({ timeScale: TIME_SCALE });

// After the sandbox's reset, which forgets every pacer: the plan's minute runs at the sandbox's pace.
beforeEach(() => scaleSecurityPlanMinute(sandbox, 60_000 / TIME_SCALE));

const health: INodeParameters = { resource: 'system', operation: 'getHealth' };
const items = (count: number) => Array.from({ length: count }, (_, n) => ({ n }));
const statuses = (requests: RecordedRequest[]) => requests.map((request) => request.status);
const refused = (requests: RecordedRequest[]) =>
	requests.filter((request) => request.status === 429).length;

function performanceNode(name: string, parameters: INodeParameters): INode {
	return packageNode('performanceService', parameters, {
		name,
		credentials: ['performanceServiceApi'],
	});
}

function outputCount(run: WorkflowRun, name: string): number {
	expect(run.nodeError(name)).toBeUndefined();
	return run.output(name).length;
}

describe('performance service: one pace per token from X-RateLimit-*', () => {
	it('holds requests back instead of sending into the limit: no 429 on a run that would overrun it', async () => {
		sandbox.setOptions({ limits: { requestsPerMinute: 5 } });
		const result = await runNode('performanceService', health, { sandbox, items: items(13) });

		expect(result.error).toBeUndefined();
		expect(result.json.map((json) => json.status)).toEqual(Array.from({ length: 13 }, () => 'ok'));
		expect(result.items.map((item) => item.pairedItem)).toEqual(
			items(13).map((_, item) => ({ item })),
		);
		const requests = requestsTo(sandbox, 'performance');
		expect(statuses(requests)).toEqual(Array.from({ length: 13 }, () => 200));
	});

	it('shares the pace between two nodes of one workflow', async () => {
		sandbox.setOptions({ limits: { requestsPerMinute: 5 } });
		const first = performanceNode('First', health);
		const second = performanceNode('Second', {
			resource: 'site',
			operation: 'get',
			siteId: byId('site_1'),
		});
		const run = await runWorkflow(chain(startNode(), itemsNode(items(5)), first, second), {
			credentials: sandboxCredentials(sandbox),
		});

		expect(outputCount(run, 'First')).toBe(5);
		expect(outputCount(run, 'Second')).toBe(5);
		const requests = requestsTo(sandbox, 'performance');
		expect(requests.map((request) => request.path)).toEqual([
			...Array.from({ length: 5 }, () => '/system'),
			...Array.from({ length: 5 }, () => '/sites/site_1'),
		]);
		// The second node knew the window was spent: it did not send a request to find out.
		expect(refused(requests)).toBe(0);
	});

	it('shares the pace between two executions running at the same time', async () => {
		sandbox.setOptions({ limits: { requestsPerMinute: 6 } });
		const workflow = (name: string) =>
			chain(startNode(), itemsNode(items(9)), performanceNode(name, health));
		const credentials = sandboxCredentials(sandbox);
		const [a, b] = await Promise.all([
			runWorkflow(workflow('A'), { credentials }),
			runWorkflow(workflow('B'), { credentials }),
		]);

		expect(outputCount(a, 'A')).toBe(9);
		expect(outputCount(b, 'B')).toBe(9);
		const requests = requestsTo(sandbox, 'performance');
		expect(requests).toHaveLength(18);
		expect(refused(requests)).toBe(0);
	});

	it('fails an item at once, without sending it, when the spent window frees later than the node waits', async () => {
		// Half speed: the service's minute lasts two real minutes, beyond the 65 s the node waits.
		sandbox.setOptions({ timeScale: 0.5, limits: { requestsPerMinute: 2 } });
		const result = await runNode('performanceService', health, {
			sandbox,
			items: items(3),
			continueOnFail: true,
		});

		expect(result.json.slice(0, 2).map((json) => json.status)).toEqual(['ok', 'ok']);
		expect(reasonOf(result.json[2].error as string)).toBe('rate_limited');
		expect(result.json[2].message).toMatch(/did not send the request/);
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(statuses(requestsTo(sandbox, 'performance'))).toEqual([200, 200]);
	});

	it('counts Reoptimize, whose headers are its own limit, in the token window (issue 38, case 2)', async () => {
		sandbox.setOptions({ limits: { requestsPerMinute: 5 } });
		// Two requests teach the window: 3 remaining.
		await runNode('performanceService', health, { sandbox, items: items(2) });
		const sites = ['site_1', 'site_2', 'site_3', 'site_4'].map((site) => ({ site }));
		const result = await runNode(
			'performanceService',
			{ resource: 'site', operation: 'reoptimize', siteId: byId('={{ $json.site }}') },
			{ sandbox, items: sites },
		);

		expect(result.error).toBeUndefined();
		expect(result.json.map((json) => json.siteId)).toEqual(sites.map(({ site }) => site));
		// Three in this window, the fourth held back until the reset rather than refused.
		expect(statuses(requestsTo(sandbox, 'performance'))).toEqual([200, 200, 200, 200, 200, 200]);
	});

	it('still recovers through the 429 backstop when another process spent the window', async () => {
		sandbox.setOptions({ limits: { requestsPerMinute: 3 } });
		for (let index = 0; index < 3; index++) {
			await fetch(`${sandbox.performanceUrl}/system`, {
				headers: { authorization: `Bearer ${sandbox.tokens.readWrite}` },
			});
		}
		const result = await runNode('performanceService', health, { sandbox, items: items(4) });

		expect(result.error).toBeUndefined();
		expect(result.json).toHaveLength(4);
		const requests = requestsTo(sandbox, 'performance');
		// The other process's three, the node's first request refused, then the node's four.
		expect(statuses(requests)).toEqual([200, 200, 200, 429, 200, 200, 200, 200]);
	});
});

describe('security service: the credential plan', () => {
	const listSites: INodeParameters = {
		resource: 'site',
		operation: 'getAll',
		returnAll: false,
		limit: 1,
	};
	const runSecurity = (plan: string, count: number) =>
		runNode('securityService', listSites, { sandbox, credentials: { plan }, items: items(count) });

	beforeEach(() => {
		// Like the real service: no rate-limit headers, only the plan's limit.
		sandbox.setOptions({ securityRateLimitHeaders: false });
	});

	it('keeps to the Standard plan (100 a minute): 150 requests, none refused', async () => {
		const result = await runSecurity('standard', 150);

		expect(result.error).toBeUndefined();
		expect(result.json).toHaveLength(150);
		const requests = requestsTo(sandbox, 'security');
		expect(requests).toHaveLength(150);
		expect(refused(requests)).toBe(0);
	});

	it('keeps to the Agency plan (500 a minute) against a service enforcing it', async () => {
		sandbox.setOptions({ limits: { securityRequestsPerMinute: 500 } });
		const result = await runSecurity('agency', 600);

		expect(result.error).toBeUndefined();
		expect(result.json).toHaveLength(600);
		expect(refused(requestsTo(sandbox, 'security'))).toBe(0);
	});

	it('sends at full speed on Enterprise (unlimited): against a Standard limit the service refuses some', async () => {
		const result = await runSecurity('enterprise', 150);

		// The 429 backstop waits for the Retry-After the service names and retries.
		expect(result.error).toBeUndefined();
		expect(result.json).toHaveLength(150);
		expect(refused(requestsTo(sandbox, 'security'))).toBeGreaterThan(0);
	});

	it('keeps to the plan again once a window learnt from one answer has reset (issue 38, case 3)', async () => {
		// One answer with X-RateLimit-Remaining: 0 (another process spent a one-request window).
		sandbox.setOptions({
			securityRateLimitHeaders: true,
			limits: { securityRequestsPerMinute: 1 },
		});
		await fetch(`${sandbox.securityUrl}/sites`, {
			headers: { authorization: `Bearer ${sandbox.securityKey}` },
		});
		expect((await runSecurity('standard', 1)).error).toBeUndefined();
		// From now on, like the real service: no headers, the Standard plan's 100 a minute.
		sandbox.setOptions({
			securityRateLimitHeaders: false,
			limits: { securityRequestsPerMinute: 100 },
		});
		const before = requestsTo(sandbox, 'security').length;
		const result = await runSecurity('standard', 150);

		expect(result.error).toBeUndefined();
		expect(result.json).toHaveLength(150);
		expect(refused(requestsTo(sandbox, 'security').slice(before))).toBe(0);
	});

	it('lets rate-limit headers win over the plan when the service sends them', async () => {
		sandbox.setOptions({
			securityRateLimitHeaders: true,
			limits: { securityRequestsPerMinute: 4 },
		});
		const result = await runSecurity('agency', 10);

		expect(result.error).toBeUndefined();
		expect(result.json).toHaveLength(10);
		expect(refused(requestsTo(sandbox, 'security'))).toBe(0);
	});
});
