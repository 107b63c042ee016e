import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';

import type { RecordedRequest, Sandbox } from '../test/support/sandbox/index.mts';
import { registerNodeType } from '../test/support/harness/nodeTypes.mts';
import {
	chain,
	itemsNode,
	packageNode,
	runWorkflow,
	startNode,
	type Credentials,
} from '../test/support/harness/runWorkflow.mts';
import { sandboxCredentials } from '../test/support/harness/sandbox.mts';
import { HTTP_REQUEST_NODE_TYPE, loadHttpRequestNode } from './n8nHttpRequestNode.mts';

export interface BulkResult {
	ms: number;
	/** Output items (0 when the node stopped with an error). */
	succeeded: number;
	/** Items that did not produce a result: error items, or all of them when the node failed. */
	failed: number;
	/** Requests the service received during the run, and how many it answered 429. */
	requests: number;
	answered429: number;
}

let httpNodeLoaded = false;

/** Registers n8n's own HTTP Request node with the harness (once). */
export function useHttpRequestNode(): void {
	if (httpNodeLoaded) return;
	registerNodeType(HTTP_REQUEST_NODE_TYPE, loadHttpRequestNode());
	httpNodeLoaded = true;
}

export function numberedItems(count: number): IDataObject[] {
	return Array.from({ length: count }, (_, index) => ({ n: index }));
}

function received(sandbox: Sandbox, since: number): RecordedRequest[] {
	return sandbox.requests.slice(since);
}

/** Runs Start → Items(count) → `node` and measures the whole execution. */
export async function runBulk(
	sandbox: Sandbox,
	node: INode,
	count: number,
	credentials: Credentials = sandboxCredentials(sandbox),
): Promise<BulkResult> {
	const before = sandbox.requests.length;
	const started = performance.now();
	const run = await runWorkflow(chain(startNode(), itemsNode(numberedItems(count)), node), {
		credentials,
	});
	const ms = performance.now() - started;
	const error = run.nodeError(node.name);
	const output = error ? [] : run.output(node.name);
	const errorItems = output.filter((item) => item.json.error !== undefined).length;
	const requests = received(sandbox, before);
	return {
		ms,
		succeeded: output.length - errorItems,
		failed: error ? count : errorItems,
		requests: requests.length,
		answered429: requests.filter((request) => request.status === 429).length,
	};
}

export function packageBulkNode(
	type: 'performanceService' | 'securityService',
	parameters: INodeParameters,
	options: { name?: string; continueOnFail?: boolean } = {},
): INode {
	return packageNode(type, parameters, {
		name: options.name ?? type,
		continueOnFail: options.continueOnFail,
		credentials: [type === 'performanceService' ? 'performanceServiceApi' : 'securityServiceApi'],
	});
}

export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function seconds(ms: number): string {
	return `${(ms / 1000).toFixed(2)} s`;
}

/** Prints a Markdown table (docs/benchmarks.md carries the same table). */
export function printTable(
	title: string,
	header: string[],
	rows: Array<Array<string | number>>,
): void {
	const lines = [
		`\n### ${title}\n`,
		`| ${header.join(' | ')} |`,
		`|${header.map(() => '---').join('|')}|`,
		...rows.map((row) => `| ${row.join(' | ')} |`),
		'',
	];
	console.log(lines.join('\n'));
}
