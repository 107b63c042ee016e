import {
	commitStagedCursor,
	PollContext,
	runPollInStagingScope,
	TriggersAndPollers,
} from 'n8n-core';
import {
	Workflow,
	type IDataObject,
	type INode,
	type INodeParameters,
	type INodeExecutionData,
	type WorkflowActivateMode,
} from 'n8n-workflow';

import { createNodeTypes } from './nodeTypes.mts';
import { loadPackageTypes } from './packageTypes.mts';
import { buildAdditionalData, packageNode, type Credentials } from './runWorkflow.mts';

export interface PollOptions {
	credentials: Credentials;
	/** Static data as saved in the database by an earlier run; undefined for a new workflow. */
	staticData?: IDataObject;
	/** 'trigger' for an active workflow's poll, 'manual' for the editor's test run. */
	mode?: 'trigger' | 'manual';
	activation?: WorkflowActivateMode;
	/** The node under test; its name keys its static data. */
	node: INode;
	/** What `getPollBudgetMs()` returns; null: the method is missing, as before n8n 2.38. Default: n8n-core's (5 minutes). */
	pollBudgetMs?: number | null;
	/**
	 * n8n's durable poll cursors (`N8N_POLLER_DURABLE_CURSORS_ENABLED`), default on: a poll that emits
	 * nothing commits its static data. Off (n8n's default): only an emit saves it; the rest stays in
	 * the process's memory (`liveStaticData`) and is lost on a restart.
	 */
	durableCursors?: boolean;
}

export interface PollRun {
	/** What poll() returned: null when it emitted nothing. */
	result: INodeExecutionData[][] | null;
	/** Items of the first output, [] when nothing was emitted. */
	items: INodeExecutionData[];
	/** Static data as n8n would have saved it (reload it into the next run to simulate a restart). */
	staticData: IDataObject | undefined;
	/** Whether the engine saved the static data (after an emit, or on a cursor commit). */
	saved: boolean;
	/** Static data as the process holds it after the poll: what its next poll sees without a restart. */
	liveStaticData: IDataObject;
	error?: Error;
}

/** A deep copy as the database round trip makes it, without n8n's change flag. */
function persisted(value: IDataObject): IDataObject {
	return JSON.parse(
		JSON.stringify(value, (key, entry: unknown) => (key === '__dataChanged' ? undefined : entry)),
	) as IDataObject;
}

/** A trigger node of this package with a credential reference, for runPoll. */
export function triggerNode(
	type: string,
	parameters: INode['parameters'],
	credentialType: string,
	name?: string,
): INode {
	return packageNode(type, parameters, { name: name ?? type, credentials: [credentialType] });
}

/** Settings of one poll of a trigger under test; `baseUrl`: the credential's, the sandbox's when not given. */
export type TriggerPollSettings = Pick<
	PollOptions,
	'mode' | 'activation' | 'pollBudgetMs' | 'durableCursors'
> & { baseUrl?: string };

/**
 * A function that polls one trigger of this package (named `name`, with the credential that
 * `credentials` makes for a base URL) once through runPoll.
 */
export function triggerPoller(
	type: string,
	credentialType: string,
	name: string,
	credentials: (baseUrl?: string) => Credentials,
) {
	return async (
		parameters: INodeParameters,
		staticData?: IDataObject,
		{ baseUrl, ...settings }: TriggerPollSettings = {},
	): Promise<PollRun> =>
		await runPoll({
			node: triggerNode(type, parameters, credentialType, name),
			credentials: credentials(baseUrl),
			staticData,
			...settings,
		});
}

/**
 * Runs a polling node's poll() once the way n8n's tick engine does: through n8n-core's PollContext
 * and TriggersAndPollers, inside the cursor staging scope; static data is saved after an emit
 * or, when nothing was emitted, by committing the staged cursor. Errors are returned, not thrown.
 */
export async function runPoll(options: PollOptions): Promise<PollRun> {
	const types = await loadPackageTypes();
	const mode = options.mode ?? 'trigger';
	const workflow = new Workflow({
		id: 'poll-workflow',
		name: 'Poll workflow',
		nodes: [options.node],
		connections: {},
		active: mode === 'trigger',
		nodeTypes: createNodeTypes(types),
		staticData: options.staticData ? persisted(options.staticData) : undefined,
		settings: { executionOrder: 'v1' },
	});
	const additionalData = buildAdditionalData(types, options.credentials);
	let saved: IDataObject | undefined = options.staticData;
	let didSave = false;
	const save = (): void => {
		saved = persisted(workflow.staticData);
		didSave = true;
	};
	const context = new PollContext(
		workflow,
		options.node,
		additionalData,
		mode,
		options.activation ?? (mode === 'manual' ? 'manual' : 'activate'),
		() => save(),
		(error) => {
			throw error;
		},
		async () => {
			if (options.durableCursors !== false) save();
		},
		undefined,
		undefined,
		typeof options.pollBudgetMs === 'number' ? () => options.pollBudgetMs as number : undefined,
	);
	if (options.pollBudgetMs === null) Reflect.deleteProperty(context, 'getPollBudgetMs');

	const pollers = new TriggersAndPollers();
	try {
		const result = await runPollInStagingScope(context, async () => {
			const response = await pollers.runPollFunction(workflow, options.node, context);
			if (mode === 'trigger') {
				if (response !== null) context.__emit(response);
				else await commitStagedCursor(context);
			}
			return response;
		});
		const live = persisted(workflow.staticData);
		return {
			result,
			items: result?.[0] ?? [],
			staticData: saved,
			saved: didSave,
			liveStaticData: live,
		};
	} catch (error) {
		const live = persisted(workflow.staticData);
		return {
			result: null,
			items: [],
			staticData: saved,
			saved: didSave,
			liveStaticData: live,
			error: error as Error,
		};
	}
}
