import { expect } from 'vitest';

import type { Sandbox } from '../sandbox/index.mts';
import {
	executionDetails,
	FINISHED,
	nodeOutput,
	waitForExecutions,
} from '../../e2e/executions.mts';
import type { ExecutionDetail, N8nClient } from './client.mts';
import { isListPoll, lastStopped, SETTLE_MS, TWO_POLLS_MS, waitForListPoll } from './listPolls.mts';
import type { PolledList } from './listPolls.mts';
import { delay, waitFor } from './processes.mts';
import {
	DELIVERY_TRIGGER_NODE,
	PERFORMANCE_ACTION_NODE,
	POLLER_NODE,
	SECURITY_ACTION_NODE,
	STATUS_POLLER_NODE,
} from './testWorkflows.mts';

/** Checks the queue-mode and n8n 1.x suites share: what the package's triggers started in real n8n. */

/** The executions of `workflowId` (of every workflow when left out), oldest first. */
async function allExecutions(client: N8nClient, workflowId?: string): Promise<ExecutionDetail[]> {
	const executions = await executionDetails(client, await client.executions(workflowId));
	return executions.sort((a, b) => Number(a.id) - Number(b.id));
}

/**
 * One line per execution of the workflow (of every workflow when `workflowId` is left out): id,
 * workflow, mode, status, start, the ids of what each node emitted, the error.
 */
export async function executionLines(client: N8nClient, workflowId?: string): Promise<string> {
	const lines = (await allExecutions(client, workflowId)).map((execution) => {
		const runData = execution.data?.resultData.runData ?? {};
		const emitted = Object.keys(runData).map(
			(node) =>
				`${node}: [${nodeOutput(execution, node)
					.map((item) => item.id)
					.join(', ')}]`,
		);
		const error = execution.data?.resultData.error?.message;
		return `${execution.id} ${execution.workflowId} ${execution.mode} ${execution.status} ${execution.startedAt} ${emitted.join(' ')}${error ? ` error: ${error}` : ''}`;
	});
	return `executions:\n${lines.join('\n') || 'none'}`;
}

/** What a poller check watches: the workflow, what it waits for, the list and since when. */
interface PollerWatch extends PolledList {
	workflowId: string;
	/** Names what the check waits for, at the top of a timeout's message. */
	about: string;
}

/**
 * Waits up to two polls for `probe`; a timeout's message gives the list polls the service saw
 * since `watch.since`, with their answers, and the workflow's executions.
 */
async function waitForPollerOutcome<T>(
	client: N8nClient,
	sandbox: Sandbox,
	what: string,
	probe: () => Promise<T | undefined>,
	watch: PollerWatch,
): Promise<T> {
	const { service, path, since } = watch;
	const explain = async (): Promise<string> => {
		const polls = sandbox.requests
			.filter((request) => isListPoll(request, watch))
			.map((request) => `${new Date(request.at).toISOString()} ${request.status ?? 'pending'}`);
		return [
			watch.about,
			`${service} ${path} polls since ${new Date(since).toISOString()}: ${polls.join('; ') || 'none'}`,
			await executionLines(client, watch.workflowId),
		].join('\n');
	};
	return await waitFor(what, probe, { timeoutMs: TWO_POLLS_MS, intervalMs: 1000, explain });
}

/** The `id` of every item the trigger (the delivery trigger when left out) emitted, one entry per emission. */
export async function deliveredEventIds(
	client: N8nClient,
	workflowId: string,
	trigger = DELIVERY_TRIGGER_NODE,
): Promise<unknown[]> {
	const executions = await allExecutions(client, workflowId);
	return executions.flatMap((execution) => nodeOutput(execution, trigger).map((item) => item.id));
}

/** Waits until an execution for `eventId` exists and every execution of the workflow has finished. */
export async function waitForEventExecution(
	client: N8nClient,
	workflowId: string,
	eventId: string,
): Promise<unknown[]> {
	return await waitFor(
		`an execution for event ${eventId}`,
		async () => {
			const executions = await allExecutions(client, workflowId);
			if (!executions.every((execution) => FINISHED.has(execution.status))) return undefined;
			const ids = executions.flatMap((execution) =>
				nodeOutput(execution, DELIVERY_TRIGGER_NODE).map((item) => item.id),
			);
			return ids.includes(eventId) ? ids : undefined;
		},
		{ timeoutMs: 120_000, intervalMs: 500 },
	);
}

export interface PollerResult {
	/** Executions started by the first poll, which sees only threats that existed before publishing. */
	executionsBeforeNewThreats: number;
	/** Threat ids the poller emitted, one entry per emission, after the new threats were added. */
	emitted: unknown[];
	newThreatIds: string[];
	executionIds: string[];
	executionIdsAfterAnotherPoll: string[];
	statuses: string[];
}

/**
 * Lets the published poller take its first look (which only records what exists), adds two
 * threats, waits until it has emitted them, then waits for one more poll.
 */
export async function runPollerOnce(
	client: N8nClient,
	sandbox: Sandbox,
	workflowId: string,
	publishedAt: number,
): Promise<PollerResult> {
	// Only the poller reads the threat list, with the sandbox's one key.
	const threatList = { service: 'security' as const, path: '/threats', token: sandbox.securityKey };
	await waitForListPoll(() => sandbox.requests, { ...threatList, since: publishedAt });
	await delay(SETTLE_MS);
	const executionsBeforeNewThreats = (await client.executions(workflowId)).length;
	const addedAt = Date.now();
	const newThreatIds = [
		String(sandbox.addThreat({ severity: 'high', title: 'Queue webshell in uploads' }).id),
		String(sandbox.addThreat({ severity: 'low', title: 'Queue outdated jQuery' }).id),
	];
	const executions = await waitForPollerOutcome(
		client,
		sandbox,
		'the poller to emit the new threats',
		async () => {
			const found = await allExecutions(client, workflowId);
			const emitted = found.flatMap((execution) =>
				nodeOutput(execution, POLLER_NODE).map((threat) => threat.id),
			);
			const done = found.every((execution) => FINISHED.has(execution.status));
			return done && newThreatIds.every((id) => emitted.includes(id)) ? found : undefined;
		},
		{
			workflowId,
			about: `new threats ${newThreatIds.join(', ')}`,
			...threatList,
			since: addedAt,
		},
	);
	await waitForListPoll(() => sandbox.requests, { ...threatList, since: lastStopped(executions) });
	await delay(SETTLE_MS);
	await waitForExecutions(client, workflowId, executions.length);
	const after = await allExecutions(client, workflowId);
	return {
		executionsBeforeNewThreats,
		emitted: after.flatMap((execution) =>
			nodeOutput(execution, POLLER_NODE).map((threat) => threat.id),
		),
		newThreatIds,
		executionIds: executions.map((execution) => execution.id),
		executionIdsAfterAnotherPoll: after.map((execution) => execution.id),
		statuses: after.map((execution) => execution.status),
	};
}

export interface ActionRun {
	/** n8n's answer to the webhook call that started the run. */
	status: number;
	executions: ExecutionDetail[];
	performanceSites: Array<Record<string, unknown>>;
	securitySites: Array<Record<string, unknown>>;
	/** The services that were asked for their sites. */
	servedServices: string[];
}

/**
 * Calls the published action-nodes workflow's webhook at `url` (n8n's Webhook node answers 404
 * until it is registered, and starts a run after) and returns the run.
 */
export async function runActionNodes(
	client: N8nClient,
	sandbox: Sandbox,
	workflowId: string,
	url: string,
): Promise<ActionRun> {
	const status = await waitFor(`the webhook ${url}`, async () => {
		const response = await fetch(url, { method: 'POST', body: '{}' });
		await response.body?.cancel();
		return response.status === 404 ? undefined : response.status;
	});
	await waitForExecutions(client, workflowId, 1);
	const executions = await allExecutions(client, workflowId);
	const first = executions[0];
	const served = sandbox.requests.filter(
		(request) => request.method === 'GET' && request.path === '/sites',
	);
	return {
		status,
		executions,
		performanceSites: first ? nodeOutput(first, PERFORMANCE_ACTION_NODE) : [],
		securitySites: first ? nodeOutput(first, SECURITY_ACTION_NODE) : [],
		servedServices: [...new Set(served.map((request) => request.service))].sort(),
	};
}

/** One successful run in which both action nodes returned the sandbox's sites, each service asked once or more. */
export function expectActionNodesRan(run: ActionRun): void {
	expect(run.status).toBe(200);
	expect(run.executions.map((execution) => execution.status)).toEqual(['success']);
	expect(run.performanceSites.length).toBeGreaterThan(0);
	expect(run.performanceSites.every((site) => typeof site.id === 'string')).toBe(true);
	expect(run.securitySites.length).toBeGreaterThan(0);
	expect(run.securitySites.every((site) => site.id !== undefined)).toBe(true);
	expect(run.servedServices).toEqual(['performance', 'security']);
}

/** Nothing for the threats that existed at publishing, each new threat once, nothing from the next poll. */
export function expectEachNewThreatOnce(result: PollerResult): void {
	expect(result.executionsBeforeNewThreats).toBe(0);
	expect(result.statuses.every((status) => status === 'success')).toBe(true);
	expect([...result.emitted].sort()).toEqual([...result.newThreatIds].sort());
	expect(result.executionIdsAfterAnotherPoll).toEqual(result.executionIds);
}

export interface StatusPollerResult {
	siteId: string;
	/** Executions that emitted the site: its first listing and its status change, then one more poll. */
	executionsBeforeChange: number;
	emitted: Array<Record<string, unknown>>;
	statuses: string[];
	executionIds: string[];
	executionIdsAfterAnotherPoll: string[];
}

/**
 * With a published siteStatusChanged poller whose credential reads with `token` (one no other
 * workflow uses, so that its polls are told apart): adds a HEALTHY site, waits for a poll that
 * lists it (which only remembers its status), turns it DEGRADED, waits until the poller has
 * emitted the change, then waits for one more poll.
 */
export async function runStatusPollerOnce(
	client: N8nClient,
	sandbox: Sandbox,
	workflowId: string,
	token: string,
): Promise<StatusPollerResult> {
	const siteList = { service: 'performance' as const, path: '/sites', token };
	const siteId = sandbox.addSite('HEALTHY').id;
	await waitForListPoll(() => sandbox.requests, { ...siteList, since: Date.now() });
	await delay(SETTLE_MS);
	const emittedFor = (executions: ExecutionDetail[]) =>
		executions.flatMap((execution) =>
			nodeOutput(execution, STATUS_POLLER_NODE).filter((site) => site.id === siteId),
		);
	const forSite = async () =>
		(await allExecutions(client, workflowId)).filter(
			(execution) => emittedFor([execution]).length > 0,
		);
	const executionsBeforeChange = (await forSite()).length;
	const changedAt = Date.now();
	sandbox.setSiteStatus(siteId, 'DEGRADED');
	const executions = await waitForPollerOutcome(
		client,
		sandbox,
		'the poller to emit the status change',
		async () => {
			const found = await forSite();
			return found.length > 0 && found.every((execution) => FINISHED.has(execution.status))
				? found
				: undefined;
		},
		{
			workflowId,
			about: `site ${siteId}`,
			...siteList,
			since: changedAt,
		},
	);
	await waitForListPoll(() => sandbox.requests, { ...siteList, since: lastStopped(executions) });
	await delay(SETTLE_MS);
	const after = await forSite();
	return {
		siteId,
		executionsBeforeChange,
		emitted: emittedFor(after),
		statuses: after.map((execution) => execution.status),
		executionIds: executions.map((execution) => execution.id),
		executionIdsAfterAnotherPoll: after.map((execution) => execution.id),
	};
}

export function expectStatusChangeOnce(result: StatusPollerResult): void {
	expect(result.executionsBeforeChange).toBe(0);
	expect(result.statuses).toEqual(['success']);
	expect(result.emitted).toEqual([
		expect.objectContaining({ id: result.siteId, status: 'DEGRADED', previousStatus: 'HEALTHY' }),
	]);
	expect(result.executionIdsAfterAnotherPoll).toEqual(result.executionIds);
}
