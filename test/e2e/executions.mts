import type { ExecutionDetail, ExecutionSummary, N8nClient } from '../support/n8n/client.mts';
import { waitFor } from '../support/n8n/processes.mts';

/** Statuses of an execution that has run to its end. */
export const FINISHED = new Set(['success', 'error', 'crashed', 'canceled']);

/** Waits until the workflow has at least `count` finished executions; returns them oldest first. */
export async function waitForExecutions(
	client: N8nClient,
	workflowId: string,
	count: number,
	timeoutMs = 60_000,
): Promise<ExecutionSummary[]> {
	return await waitFor(
		`${count} finished execution(s) of workflow ${workflowId}`,
		async () => {
			const executions = await client.executions(workflowId);
			const finished = executions.filter((execution) => FINISHED.has(execution.status));
			return finished.length >= count && finished.length === executions.length
				? finished.sort((a, b) => Number(a.id) - Number(b.id))
				: undefined;
		},
		{ timeoutMs, intervalMs: 500 },
	);
}

/** Waits for one execution (by id) to finish and returns it with its data. */
export async function waitForExecution(
	client: N8nClient,
	id: string,
	timeoutMs = 60_000,
): Promise<ExecutionDetail> {
	return await waitFor(
		`execution ${id} to finish`,
		async () => {
			const execution = await client.execution(id);
			return FINISHED.has(execution.status) ? execution : undefined;
		},
		{ timeoutMs, intervalMs: 500 },
	);
}

/** The JSON of the items a node emitted on its first output in its first run. */
export function nodeOutput(
	execution: ExecutionDetail,
	nodeName: string,
): Array<Record<string, unknown>> {
	const runs = execution.data?.resultData.runData[nodeName];
	if (!runs) return [];
	return (runs[0]?.data?.main?.[0] ?? []).map((item) => item.json);
}

export async function executionDetails(
	client: N8nClient,
	executions: ExecutionSummary[],
): Promise<ExecutionDetail[]> {
	return await Promise.all(executions.map((execution) => client.execution(execution.id)));
}
