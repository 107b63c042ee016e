import { createServer } from 'node:net';

import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { chain, itemsNode, packageNode, runWorkflow, startNode, type WorkflowRun } from '../harness/runWorkflow.ts';
import { startSandbox, type RecordedRequest, type Sandbox, type SandboxOptions } from '../sandbox/index.ts';

export const NODE_NAME = 'Performance';

export async function startPerformanceSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	return await startSandbox({ quiet: true, ...options });
}

/** A local port nothing listens on, for "service unreachable" cases. */
export async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

/** A resource-locator value in "By ID" mode. */
export function byId(value: string): INodeParameters[string] {
	return { __rl: true, mode: 'id', value };
}

export interface PerformanceRun {
	run: WorkflowRun;
	items: INodeExecutionData[];
	json: IDataObject[];
	/** The error the node stopped with (no "Continue On Fail"). */
	error?: Error & { description?: string; httpCode?: string; context?: IDataObject };
}

export interface RunOptions {
	token?: string;
	baseUrl?: string;
	/** Input items; without them the node runs once on an empty item. */
	items?: IDataObject[];
	continueOnFail?: boolean;
}

/** Runs the Performance Service node through n8n's engine against the sandbox. */
export async function runPerformance(
	sandbox: Sandbox,
	parameters: INodeParameters,
	options: RunOptions = {},
): Promise<PerformanceRun> {
	const node = packageNode('performanceService', parameters, {
		name: NODE_NAME,
		credentials: ['performanceServiceApi'],
		continueOnFail: options.continueOnFail,
	});
	const nodes = options.items ? [startNode(), itemsNode(options.items), node] : [startNode(), node];
	const run = await runWorkflow(chain(...nodes), {
		credentials: {
			performanceServiceApi: {
				baseUrl: options.baseUrl ?? sandbox.performanceUrl,
				apiToken: options.token ?? sandbox.tokens.readWrite,
			},
		},
	});
	const error = run.nodeError(NODE_NAME) as PerformanceRun['error'];
	const items = error ? [] : run.output(NODE_NAME);
	return { run, items, json: items.map((item) => item.json), error };
}

/** Requests the performance service received, as method, path, query and Authorization header. */
export function performanceCalls(sandbox: Sandbox): Array<Pick<RecordedRequest, 'method' | 'path' | 'query'> & { auth?: string }> {
	return sandbox.requests
		.filter((request) => request.service === 'performance')
		.map(({ method, path, query, headers }) => ({ method, path, query, auth: headers.authorization }));
}
