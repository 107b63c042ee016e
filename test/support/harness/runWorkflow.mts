import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import {
	createRunExecutionData,
	Workflow,
	type ICredentialDataDecryptedObject,
	type IConnections,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type IRun,
	type IWorkflowBase,
	type IWorkflowExecuteAdditionalData,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { TestCredentialsHelper } from './credentialsHelper.mts';
import { createNodeTypes } from './nodeTypes.mts';
import { PACKAGE_NAME } from '../n8n/paths.mts';
import { loadPackageTypes, shippedVersion, type PackageTypes } from './packageTypes.mts';
import { ITEMS_NODE_TYPE, START_NODE_TYPE } from './testNodes.mts';

export type Credentials = Record<string, ICredentialDataDecryptedObject>;

export interface TestWorkflow {
	nodes: INode[];
	connections: IConnections;
	staticData?: IDataObject;
}

let nodeId = 0;

/** Loaded once here so that packageNode can give a node the version its type ships. */
const packageTypes = await loadPackageTypes();

/** The type name n8n gives a node of this package (`performanceService` → `<package>.performanceService`). */
export function packageTypeName(type: string): string {
	return type.includes('.') ? type : `${PACKAGE_NAME}.${type}`;
}

/** A node of this package by its short type name (`performanceService`), or a test helper node. */
export function packageNode(
	type: string,
	parameters: INode['parameters'],
	options: {
		name?: string;
		continueOnFail?: boolean;
		credentials?: string[];
		typeVersion?: number;
	} = {},
): INode {
	const node: INode = {
		id: `node-${++nodeId}`,
		name: options.name ?? type,
		type: packageTypeName(type),
		typeVersion: options.typeVersion ?? shippedVersion(packageTypes, packageTypeName(type)),
		position: [nodeId * 200, 0],
		parameters,
	};
	if (options.continueOnFail) node.onError = 'continueRegularOutput';
	if (options.credentials) {
		node.credentials = Object.fromEntries(
			options.credentials.map((credentialType) => [
				credentialType,
				// One credential per node, as in n8n when each node was given its own.
				{ id: `${credentialType}-${node.id}`, name: credentialType },
			]),
		);
	}
	return node;
}

export function startNode(): INode {
	return packageNode(START_NODE_TYPE, {}, { name: 'Start' });
}

export function itemsNode(items: IDataObject[], name = 'Items'): INode {
	return packageNode(ITEMS_NODE_TYPE, { items: JSON.stringify(items) }, { name });
}

/** Connects nodes one after the other on their first main output. */
export function chain(...nodes: INode[]): TestWorkflow {
	const connections: IConnections = {};
	for (let index = 0; index < nodes.length - 1; index++) {
		connections[nodes[index].name] = {
			main: [[{ node: nodes[index + 1].name, type: 'main', index: 0 }]],
		};
	}
	return { nodes, connections };
}

export function buildAdditionalData(
	types: PackageTypes,
	credentials: Credentials,
	hooks?: ExecutionLifecycleHooks,
): IWorkflowExecuteAdditionalData {
	const partial: Partial<IWorkflowExecuteAdditionalData> = {
		credentialsHelper: new TestCredentialsHelper(types, credentials),
		hooks,
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		formBaseUrl: 'http://127.0.0.1:5678/form',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		formTestBaseUrl: 'http://127.0.0.1:5678/form-test',
		mcpBaseUrl: 'http://127.0.0.1:5678/mcp',
		mcpTestBaseUrl: 'http://127.0.0.1:5678/mcp-test',
		currentNodeExecutionIndex: 0,
		variables: {},
		executionId: `test-${Date.now()}`,
		getRunExecutionData: async () => undefined,
	};
	return partial as IWorkflowExecuteAdditionalData;
}

export interface WorkflowRun {
	run: IRun;
	workflow: Workflow;
	/** Items of a node's output (first run), with their pairedItem. */
	output(nodeName: string, outputIndex?: number): INodeExecutionData[];
	/** The error a node stopped with, if any. */
	nodeError(nodeName: string): Error | undefined;
}

/**
 * Runs a workflow through n8n-core's WorkflowExecute, as n8n does for a manual execution:
 * real node classes, real credential authentication, real HTTP.
 */
export async function runWorkflow(
	definition: TestWorkflow,
	options: {
		credentials?: Credentials;
		input?: INodeExecutionData[];
		mode?: WorkflowExecuteMode;
	} = {},
): Promise<WorkflowRun> {
	const types = await loadPackageTypes();
	const mode = options.mode ?? 'manual';
	const workflow = new Workflow({
		id: 'test-workflow',
		name: 'Test workflow',
		nodes: definition.nodes,
		connections: definition.connections,
		active: false,
		nodeTypes: createNodeTypes(types),
		staticData: definition.staticData,
		settings: { executionOrder: 'v1' },
	});
	const workflowData: IWorkflowBase = {
		id: 'test-workflow',
		name: 'Test workflow',
		active: false,
		activeVersionId: null,
		isArchived: false,
		nodes: definition.nodes,
		connections: definition.connections,
		createdAt: new Date(),
		updatedAt: new Date(),
	};
	const hooks = new ExecutionLifecycleHooks(mode, 'test-execution', workflowData);
	const finished = new Promise<IRun>((resolve) => {
		hooks.addHandler('workflowExecuteAfter', (fullRunData) => resolve(fullRunData));
	});
	const additionalData = buildAdditionalData(types, options.credentials ?? {}, hooks);

	const startNode = definition.nodes[0];
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [
				{ node: startNode, data: { main: [options.input ?? [{ json: {} }]] }, source: null },
			],
		},
	});
	const execute = new WorkflowExecute(additionalData, mode, runExecutionData);
	await execute.processRunExecutionData(workflow);
	const run = await finished;

	return {
		run,
		workflow,
		output(nodeName, outputIndex = 0) {
			const taskData = run.data.resultData.runData[nodeName]?.[0];
			if (!taskData) throw new Error(`Node "${nodeName}" did not run`);
			return taskData.data?.main?.[outputIndex] ?? [];
		},
		nodeError(nodeName) {
			return run.data.resultData.runData[nodeName]?.[0]?.error;
		},
	};
}
