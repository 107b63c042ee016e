/**
 * n8n as the Security Service Webhook Trigger meets it, in one process, without HTTP: the order of
 * work of a webhook call (n8nWebhookContract.ts, A1-A6), of publishing (checkExists, create, then
 * a save of the static data), of unpublishing (delete, then a save) and of a restart (`init`).
 * Static data lives as JSON, as in n8n's database: each call loads it and saves it whole when
 * changed. Every step where n8n or the service could take its time waits for `step(label)`, so a
 * test (or fast-check's scheduler) decides the order.
 */
import {
	ObservableObject,
	sleep,
	type IDataObject,
	type IHookFunctions,
	type IObservableObject,
	type INodeExecutionData,
	type INodeParameters,
	type IWebhookFunctions,
	type WorkflowActivateMode,
} from 'n8n-workflow';

import { SecurityServiceWebhookTrigger } from '../../../nodes/SecurityService/SecurityServiceWebhookTrigger.node.ts';
import { nodes } from '../../../nodes/SecurityService/webhookTrigger/rings.ts';
import { processPacers } from '../../../nodes/shared/pacing/pacers.ts';
import { FakeResponse, StaticDataStore } from './fakeN8nParts.mts';

const NODE = 'Security Webhook Trigger';
const STATIC_KEY = `node:${NODE}`;
const trigger = new SecurityServiceWebhookTrigger();
const webhookMethods = trigger.webhookMethods.default;

/** How long n8n takes to create the execution of a ring marked `late`: past the 60 s grace. */
export const LATE_RECORDING_MS = 61_000;

export interface Threat {
	id: string;
	severity: 'critical' | 'low';
}

/** What a ring does beyond calling: its caller may leave, n8n may fail or be late to record. */
export interface RingSpec {
	leaves?: boolean;
	notRecorded?: boolean;
	late?: boolean;
	/** Content-Length over 1 MiB. */
	tooLarge?: boolean;
}

export interface RingAnswer {
	/** undefined: the caller left before an answer. */
	status?: number;
	body?: unknown;
}

/** What the fake tells the test (the oracle) as it happens. */
export interface N8nEvents {
	/** A list read is served now (`threats` undefined: answered 503); `baseline`: publishing's read. */
	read?(baseline: boolean, threats: readonly Threat[] | undefined): void;
	/** A ring reaches the trigger's `webhook()`. */
	arrived?(ring: number): void;
	/** n8n created an execution with these records (`late`: after its caller's grace ran out). */
	execution?(ids: string[], ring: number, late: boolean): void;
}

type Step = (label: string) => Promise<void>;

export class FakeN8n {
	readonly store = new StaticDataStore();
	/** The published version's parameters; undefined while unpublished. */
	published?: INodeParameters;
	threats: Threat[] = [];
	/** Reads answered 503, counted from the next one. */
	failReads: boolean[] = [];
	private readCount = 0;
	private ringCount = 0;

	constructor(
		private readonly step: Step,
		private readonly events: N8nEvents = {},
	) {}

	private async serve(baseline: boolean) {
		await this.step(
			baseline ? 'the service serves the baseline read' : 'the service serves a read',
		);
		const fails = this.failReads[this.readCount++] === true;
		this.events.read?.(baseline, fails ? undefined : [...this.threats]);
		if (fails) return { statusCode: 503, headers: {}, body: '{"error":"unavailable"}' };
		return {
			statusCode: 200,
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ threats: this.threats }),
		};
	}

	private base(data: IDataObject, parameters: INodeParameters, baseline: boolean) {
		return {
			getNodeParameter: (name: string, fallback?: unknown) => parameters[name] ?? fallback,
			getNode: () => ({
				id: 'node-1',
				name: NODE,
				type: 'n8n-nodes-site-performance-security.securityServiceWebhookTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters,
				credentials: { securityServiceApi: { id: 'cred-1', name: 'Security' } },
			}),
			getCredentials: async () => ({
				baseUrl: 'https://security.test/v1',
				apiKey: 'model-key',
				plan: 'enterprise',
			}),
			getWorkflow: () => ({ id: 'wf-1', name: 'Model', active: true }),
			getWorkflowStaticData: () => {
				// n8n's Workflow.getStaticData('node').
				if (data[STATIC_KEY] === undefined)
					data[STATIC_KEY] = ObservableObject.create({}, data as IObservableObject);
				return data[STATIC_KEY] as IDataObject;
			},
			logger: { warn() {}, info() {}, debug() {}, error() {} },
			helpers: { httpRequestWithAuthentication: async () => await this.serve(baseline) },
		};
	}

	private hookContext(
		data: IDataObject,
		parameters: INodeParameters,
		activation: WorkflowActivateMode,
	): IHookFunctions {
		const ctx = {
			...this.base(data, parameters, true),
			getMode: () => (activation === 'update' ? 'internal' : 'trigger'),
			getActivationMode: () => activation,
		};
		return ctx as unknown as IHookFunctions;
	}

	/** One call of the production URL, as n8n's LiveWebhooks and executeWebhook run it. */
	async ring(spec: RingSpec = {}): Promise<RingAnswer & { ring: number }> {
		const ring = ++this.ringCount;
		const parameters = this.published;
		if (!parameters) return { ring, status: 404 };
		this.events.arrived?.(ring);
		const data = this.store.load();
		const res = new FakeResponse();
		if (spec.leaves) void this.step(`ring ${ring}: the caller leaves`).then(() => res.leave());
		const ctx = {
			...this.base(data, parameters, false),
			getMode: () => 'webhook',
			getHeaderData: () => ({ 'content-length': spec.tooLarge ? '2000000' : '2' }),
			getRequestObject: () => ({ rawBody: Buffer.from('{}') }),
			getResponseObject: () => res,
		} as unknown as IWebhookFunctions;
		const result = await trigger.webhook.call(ctx);
		const answer = (): RingAnswer & { ring: number } =>
			res.writableEnded
				? { ring, status: res.statusCode, body: JSON.parse(res.body ?? 'null') as unknown }
				: { ring };
		if (result.noWebhookResponse === true || !result.workflowData) {
			await this.step(`ring ${ring}: n8n saves the static data`);
			this.store.save(data);
			return answer();
		}
		this.store.prepareExecution(data);
		await this.step(`ring ${ring}: n8n creates the execution`);
		if (spec.late) await sleep(LATE_RECORDING_MS);
		if (spec.notRecorded) {
			res.statusCode = 500;
			res.end('{"message":"Error in workflow"}');
			return answer();
		}
		const items = result.workflowData[0] as INodeExecutionData[];
		this.events.execution?.(
			items.map((item) => item.json.id as string),
			ring,
			spec.late === true && res.closed,
		);
		// A2, then A3: the answer is read, the static data saved, the answer sent.
		const body = result.webhookResponse as unknown;
		await this.step(`ring ${ring}: n8n saves the static data`);
		this.store.save(data);
		res.statusCode = 200;
		res.end(JSON.stringify(body));
		// The execution runs on and saves the static data it loaded, whatever happened meanwhile.
		void this.step(`ring ${ring}: the execution ends`).then(() => this.store.save(data, true));
		return answer();
	}

	/** Publishing (n8n's add: checkExists, create if false, then a save); `removeFirst`: delete before. */
	async publish(
		parameters: INodeParameters,
		activation: WorkflowActivateMode = 'activate',
		removeFirst = false,
	): Promise<boolean> {
		if (removeFirst) await this.unpublish();
		this.published = parameters;
		return await this.add(activation);
	}

	private async add(activation: WorkflowActivateMode): Promise<boolean> {
		const parameters = this.published;
		if (!parameters) return false;
		const data = this.store.load();
		const ctx = this.hookContext(data, parameters, activation);
		try {
			if (!(await webhookMethods.checkExists.call(ctx))) await webhookMethods.create.call(ctx);
		} catch {
			// n8n removes the webhooks of a workflow it could not activate (clearWebhooks).
			await this.unpublish();
			return false;
		}
		await this.step('n8n saves the static data after publishing');
		this.store.save(data);
		return true;
	}

	/** Unpublishing (n8n's clearWebhooks: delete on the saved static data, then a save). */
	async unpublish(): Promise<void> {
		const parameters = this.published;
		if (!parameters) return;
		this.published = undefined;
		const data = this.store.load();
		await webhookMethods.delete.call(this.hookContext(data, parameters, 'update'));
		await this.step('n8n saves the static data after unpublishing');
		this.store.save(data);
	}

	/** n8n starts again: this process's memory is gone; a published workflow is activated with `init`. */
	async restart(): Promise<boolean> {
		nodes.clear();
		processPacers.clear();
		return await this.add('init');
	}
}
