import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { HookContext, WebhookContext } from 'n8n-core';
import {
	NodeHelpers,
	ObservableObject,
	Workflow,
	type IDataObject,
	type INode,
	type INodeType,
	type IWebhookData,
	type IWebhookResponseData,
	type IWorkflowExecuteAdditionalData,
	type WorkflowActivateMode,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { createNodeTypes } from './nodeTypes.mts';
import { loadPackageTypes, type PackageTypes } from './packageTypes.mts';
import {
	buildAdditionalData,
	runWorkflow,
	type Credentials,
	type TestWorkflow,
	type WorkflowRun,
} from './runWorkflow.mts';

/** The workflow id n8n would have; runWorkflow uses the same one. */
const WORKFLOW_ID = 'test-workflow';

/** The workflow's static data as n8n's database holds it between webhook calls. */
export interface StaticDataStore {
	saved: IDataObject;
}

export interface WebhookSetup {
	/** The workflow; its first node is the webhook trigger. */
	workflow: TestWorkflow;
	credentials: Credentials;
	/** `webhook` for the production URL (default), `manual` for the test URL. */
	mode?: WorkflowExecuteMode;
	/** Static data loaded before and saved after every call; a listener makes its own when left out. */
	staticData?: StaticDataStore;
	/** Stands in for the time n8n takes to create an execution before it answers "on received". */
	recordExecution?: () => Promise<void>;
}

function triggerOf(setup: WebhookSetup): INode {
	const trigger = setup.workflow.nodes[0];
	if (!trigger) throw new Error('The workflow has no trigger node');
	return trigger;
}

function workflowOf(types: PackageTypes, setup: WebhookSetup): Workflow {
	// Like n8n, the Workflow constructor fills in parameter defaults; static data comes from the "database".
	return new Workflow({
		staticData: setup.staticData ? structuredClone(setup.staticData.saved) : undefined,
		id: WORKFLOW_ID,
		name: 'Test workflow',
		nodes: setup.workflow.nodes.map((node) => ({ ...node, parameters: { ...node.parameters } })),
		connections: setup.workflow.connections,
		active: true,
		nodeTypes: createNodeTypes(types),
		settings: { executionOrder: 'v1' },
	});
}

function webhookDataOf(
	types: PackageTypes,
	trigger: INode,
	additionalData: IWorkflowExecuteAdditionalData,
	mode: WorkflowExecuteMode,
): IWebhookData {
	const nodeType = requireNodeType(types, trigger);
	const description = nodeType.description.webhooks?.[0];
	if (!description) throw new Error(`${trigger.type} declares no webhook`);
	const webhookId = trigger.webhookId ?? trigger.id;
	return {
		httpMethod: 'POST',
		node: trigger.name,
		path: NodeHelpers.getNodeWebhookPath(WORKFLOW_ID, { ...trigger, webhookId }, description.path),
		webhookDescription: description,
		workflowId: WORKFLOW_ID,
		workflowExecuteAdditionalData: additionalData,
		webhookId,
		isTest: mode === 'manual',
	};
}

function requireNodeType(types: PackageTypes, node: INode): INodeType {
	const nodeType = types.nodes.get(node.type);
	if (!nodeType) throw new Error(`Unknown node type ${node.type}`);
	return nodeType;
}

interface LoadedTrigger {
	types: PackageTypes;
	mode: WorkflowExecuteMode;
	workflow: Workflow;
	trigger: INode;
	nodeType: INodeType;
}

/** The workflow as n8n builds it, with its trigger node and that node's type. */
async function loadTrigger(setup: WebhookSetup): Promise<LoadedTrigger> {
	const types = await loadPackageTypes();
	const workflow = workflowOf(types, setup);
	const trigger = workflow.getNode(triggerOf(setup).name);
	if (!trigger) throw new Error('Trigger node missing from the workflow');
	return {
		types,
		mode: setup.mode ?? 'webhook',
		workflow,
		trigger,
		nodeType: requireNodeType(types, trigger),
	};
}

interface Invocation {
	result: IWebhookResponseData;
	workflow: Workflow;
	responseData: unknown;
}

async function invokeWebhook(
	setup: WebhookSetup,
	req: IncomingMessage,
	res: ServerResponse,
): Promise<Invocation> {
	const { types, mode, workflow, trigger, nodeType } = await loadTrigger(setup);
	if (!nodeType.webhook) throw new Error(`${trigger.type} has no webhook method`);

	const additionalData = buildAdditionalData(types, setup.credentials);
	additionalData.httpRequest = req as IWorkflowExecuteAdditionalData['httpRequest'];
	additionalData.httpResponse = res as IWorkflowExecuteAdditionalData['httpResponse'];
	const webhookData = webhookDataOf(types, trigger, additionalData, mode);
	const context = new WebhookContext(
		workflow,
		trigger,
		additionalData,
		mode,
		webhookData,
		[],
		null,
	);
	const result = await nodeType.webhook.call(context);
	return { result, workflow, responseData: webhookData.webhookDescription.responseData };
}

/**
 * Calls the trigger's `webhook()` through n8n-core's WebhookContext, as n8n's webhook handler
 * does: `req` and `res` are the real request and response, `req.rawBody` already read.
 */
export async function callWebhook(
	setup: WebhookSetup,
	req: IncomingMessage,
	res: ServerResponse,
): Promise<IWebhookResponseData> {
	return (await invokeWebhook(setup, req, res)).result;
}

export type WebhookMethod = 'checkExists' | 'create' | 'delete';

/**
 * Runs one of the trigger's `webhookMethods.default` through n8n-core's HookContext, then saves
 * the static data it changed, as n8n's ActiveWorkflowManager does after adding or removing webhooks.
 */
export async function runWebhookMethod(
	setup: WebhookSetup,
	method: WebhookMethod,
	activation: WorkflowActivateMode = 'activate',
): Promise<boolean> {
	const { types, mode, workflow, trigger, nodeType } = await loadTrigger(setup);
	const lifecycle = nodeType.webhookMethods?.default;
	if (!lifecycle) throw new Error(`${trigger.type} has no webhookMethods.default`);
	const additionalData = buildAdditionalData(types, setup.credentials);
	const webhookData = webhookDataOf(types, trigger, additionalData, mode);
	const context = new HookContext(workflow, trigger, additionalData, mode, activation, webhookData);
	const answer = await lifecycle[method].call(context);
	if (setup.staticData && method !== 'checkExists') saveStaticData(setup.staticData, workflow);
	return answer;
}

/** What n8n's WebhookService.createWebhookIfNotExists does on activation. */
export async function activateWebhook(setup: WebhookSetup): Promise<void> {
	if (!(await runWebhookMethod(setup, 'checkExists'))) await runWebhookMethod(setup, 'create');
}

export interface WebhookCall {
	/** Status of the answer the caller got. */
	status: number;
	/** Whether the node answered the request itself before `webhook()` returned. */
	answeredByNode: boolean;
	/** Whether n8n had recorded an execution for the delivery when the answer was sent. */
	executionRecordedBeforeAnswer: boolean;
	rawBody: Buffer;
	result?: IWebhookResponseData;
	/** The workflow run the delivery started, when the trigger returned workflow data. */
	run?: WorkflowRun;
	error?: unknown;
}

export interface WebhookListener {
	/** Where to deliver: a production-style webhook URL on 127.0.0.1. */
	url: string;
	calls: WebhookCall[];
	/** The workflow's static data as saved after the last call (shared with `setup.staticData`). */
	staticData: StaticDataStore;
	/** Requests whose body has been read, answered or not. */
	received(): number;
	/** Calls that started a workflow. */
	runs(): WorkflowRun[];
	waitForCalls(count: number, timeoutMs?: number): Promise<WebhookCall[]>;
	close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

function answer(res: ServerResponse, status: number, body: unknown): void {
	if (res.headersSent) return;
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(JSON.stringify(body));
}

/**
 * n8n's body parser, as far as it matters here (`parseRequestBody` in webhook-helpers.ts):
 * `rawBody` holds the exact bytes, and a body sent as application/json that does not parse is
 * answered 422 before the node runs, unless the trigger is of version 1 with
 * `options.binaryData` set (then n8n does not parse the body).
 */
function parseLikeN8n(req: IncomingMessage, rawBody: Buffer, trigger: INode): boolean {
	req.rawBody = rawBody;
	req.readRawBody = async () => {};
	req._body = true;
	const contentType = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
	req.contentType = contentType;
	const options = trigger.parameters.options as IDataObject | undefined;
	if (trigger.typeVersion === 1 && options?.binaryData) return true;
	if (contentType !== 'application/json' || rawBody.length === 0) return true;
	try {
		(req as IncomingMessage & { body?: unknown }).body = JSON.parse(rawBody.toString('utf8'));
		return true;
	} catch {
		return false;
	}
}

/** Saves the static data if the call changed it, as n8n does before it answers. */
function saveStaticData(store: StaticDataStore, workflow: Workflow): void {
	if (workflow.staticData.__dataChanged !== true) return;
	store.saved = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
	workflow.staticData.__dataChanged = false;
}

/** What n8n 2.x does preparing the execution: a second Workflow wraps the same static data, clearing its "changed" mark. */
function wrapStaticDataAgain(workflow: Workflow): void {
	ObservableObject.create(workflow.staticData, undefined, { ignoreEmptyOnFirstChild: true });
}

/** n8n's answer in response mode "onReceived" (webhook-on-received-response-extractor.ts). */
function onReceivedAnswer(responseData: unknown, result: IWebhookResponseData): unknown {
	// n8n evaluates `responseData` with the default "firstEntryJson"; expressions are not emulated.
	const evaluated = responseData === undefined ? 'firstEntryJson' : responseData;
	if (typeof evaluated === 'string' && evaluated.startsWith('='))
		throw new Error('responseData expressions are not emulated');
	if (evaluated === 'noData') return undefined;
	if (evaluated) return evaluated;
	return result.webhookResponse !== undefined
		? result.webhookResponse
		: { message: 'Workflow was started' };
}

/**
 * What n8n's webhook helper does with the node's result (packages/cli webhook-helpers.ts,
 * executeWebhook): a node that answered itself gets no second answer; without workflow data
 * n8n answers at once; with workflow data in mode "onReceived", n8n creates the execution,
 * saves the static data and only then answers.
 */
async function handle(
	setup: WebhookSetup,
	store: StaticDataStore,
	req: IncomingMessage,
	res: ServerResponse,
): Promise<WebhookCall> {
	const rawBody = await readBody(req);
	const { workflow: loaded, trigger } = await loadTrigger(setup);
	if (!parseLikeN8n(req, rawBody, loaded.getNode(trigger.name) ?? trigger)) {
		answer(res, 422, { code: 422, message: 'Failed to parse request body' });
		return { status: 422, answeredByNode: false, executionRecordedBeforeAnswer: false, rawBody };
	}
	let invocation: Invocation;
	try {
		invocation = await invokeWebhook({ ...setup, staticData: store }, req, res);
	} catch (error) {
		answer(res, 500, { message: 'Workflow Webhook Error: Workflow could not be started!' });
		return {
			status: 500,
			answeredByNode: false,
			executionRecordedBeforeAnswer: false,
			rawBody,
			error,
		};
	}
	const { result, workflow } = invocation;
	const answeredByNode = res.writableEnded;
	const call: WebhookCall = {
		status: 0,
		answeredByNode,
		executionRecordedBeforeAnswer: false,
		rawBody,
		result,
	};
	if (result.noWebhookResponse === true || !result.workflowData) {
		saveStaticData(store, workflow);
		if (result.noWebhookResponse !== true) {
			answer(
				res,
				200,
				result.webhookResponse !== undefined
					? result.webhookResponse
					: { message: 'Webhook call received' },
			);
		}
	} else {
		// The execution is created (n8n's WorkflowRunner.run) before the static data is saved and the answer sent.
		// Preparing it, n8n 2.x wraps the same static data again, which clears its "changed" mark
		// (WorkflowRunner.establishContextForPersistence); creating it takes database round trips.
		wrapStaticDataAgain(workflow);
		await new Promise((resolve) => setTimeout(resolve, 5));
		await setup.recordExecution?.();
		call.executionRecordedBeforeAnswer = true;
		// n8n reads the answer from the node's result, then saves the static data, then sends it.
		const body = onReceivedAnswer(invocation.responseData, result);
		saveStaticData(store, workflow);
		if (!res.headersSent) {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body));
		}
	}
	call.status = res.statusCode;
	if (result.workflowData) {
		call.run = await runWorkflow(setup.workflow, {
			credentials: setup.credentials,
			input: result.workflowData[0] ?? [],
			mode: setup.mode ?? 'webhook',
		});
	}
	return call;
}

/**
 * A real HTTP listener on 127.0.0.1 that hands every request to the trigger through n8n-core's
 * WebhookContext and, when the trigger returns workflow data, runs the workflow with it.
 */
export async function startWebhookListener(setup: WebhookSetup): Promise<WebhookListener> {
	const calls: WebhookCall[] = [];
	const staticData = setup.staticData ?? { saved: {} };
	const changes = new EventEmitter();
	let received = 0;
	const server: Server = createServer((req, res) => {
		req.once('end', () => (received += 1));
		void handle(setup, staticData, req, res)
			.catch((error: unknown): WebhookCall => {
				answer(res, 500, { message: 'Test listener failed' });
				return {
					status: 500,
					answeredByNode: false,
					executionRecordedBeforeAnswer: false,
					rawBody: Buffer.alloc(0),
					error,
				};
			})
			.then((call) => {
				calls.push(call);
				changes.emit('call');
			});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	const trigger = triggerOf(setup);

	return {
		url: `http://127.0.0.1:${port}/webhook/${trigger.webhookId ?? trigger.id}/webhook`,
		calls,
		staticData,
		received: () => received,
		runs: () => calls.flatMap((call) => (call.run ? [call.run] : [])),
		waitForCalls(count, timeoutMs = 10_000) {
			return new Promise((resolve, reject) => {
				const check = (): void => {
					if (calls.length < count) return;
					clearTimeout(timer);
					changes.off('call', check);
					resolve([...calls]);
				};
				const timer = setTimeout(() => {
					changes.off('call', check);
					reject(
						new Error(`Timed out waiting for ${count} webhook calls (${calls.length} received)`),
					);
				}, timeoutMs);
				changes.on('call', check);
				check();
			});
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}
