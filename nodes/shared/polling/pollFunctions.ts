/**
 * The poll triggers' `poll()`, and the event settings every trigger on the engine reads: all
 * that relies on n8n's poll functions (IPollFunctions) is here; the engine (newRecords.ts,
 * statusChanges.ts) takes a page reader and a memory.
 * - `getNodeParameter` reads the event, its filters and query parameters.
 * - `getWorkflowStaticData('node')` holds the memory under `seen`, written once after every
 *   request succeeded (n8n saves it with an emit, or commits it as the poll's cursor).
 * - `getPollBudgetMs()` (n8n 2.38 and later; absent before, then a poll reads on until it is done).
 * - `logger.warn` takes the engine's warnings; `getMode() === 'manual'` is the editor's test run.
 */
import {
	NodeOperationError,
	type IDataObject,
	type IHookFunctions,
	type INodeExecutionData,
	type IPollFunctions,
	type IWebhookFunctions,
} from 'n8n-workflow';

import { readBaseUrl } from '../http/baseUrl';
import type { ServiceProfile } from '../http/serviceTypes';
import { pageReader } from '../lists/pagedRequests';
import { textOf } from '../lists/recordFields';
import { readQueryParameters } from '../parameters/queryParameters';
import type { EventList, RecordFilter } from './listRecords';
import { newestNewRecord, pollNewRecords } from './newRecords';
import type { PollEvent } from './pollEvent';
import { newestStatus, pollStatusChanges } from './statusChanges';

/** Key of the memory in the node's static data. */
const MEMORY_KEY = 'seen';

/** A poll trigger: its service and its events. */
export interface PollTrigger {
	profile: ServiceProfile;
	events: readonly PollEvent[];
}

/** The filters the user filled in, each a comma-separated list of accepted values. */
export function readFilters(ctx: TriggerContext, event: PollEvent): RecordFilter[] {
	const given = ctx.getNodeParameter('filters', {}) as IDataObject;
	const filters: RecordFilter[] = [];
	for (const field of event.filters) {
		const value = field.parameter
			? textOf(ctx.getNodeParameter(field.parameter, '', { extractValue: true }))
			: given[field.name];
		if (typeof value !== 'string' && typeof value !== 'number') continue;
		const values = String(value)
			.split(',')
			.map((entry) => entry.trim().toLowerCase())
			.filter((entry) => entry !== '');
		if (values.length > 0) filters.push({ fields: field.fields, values });
	}
	return filters;
}

/** The time a poll may spend, from `getPollBudgetMs()` when this n8n has it. */
function pollBudgetMs(ctx: IPollFunctions): number | undefined {
	const budget = (ctx as Partial<IPollFunctions>).getPollBudgetMs?.call(ctx);
	return typeof budget === 'number' && !Number.isNaN(budget) ? budget : undefined;
}

/** The n8n contexts a trigger reads its event's list in: a poll, a webhook call, a webhook's set-up. */
export type TriggerContext = IPollFunctions | IWebhookFunctions | IHookFunctions;

/**
 * Reads the node's event, its filters, the event's list, and the configuration (event, base URL,
 * query parameters and filters: a memory of another configuration starts over).
 */
export async function readEventList(ctx: TriggerContext, trigger: PollTrigger, budgetMs?: number) {
	const value = ctx.getNodeParameter('event');
	const event = trigger.events.find((candidate) => candidate.value === value);
	if (!event) {
		throw new NodeOperationError(ctx.getNode(), `The event "${String(value)}" is not supported`, {
			description: `Choose one of: ${trigger.events.map(({ name }) => name).join(', ')}.`,
		});
	}
	const filters = readFilters(ctx, event);
	const qs = { ...event.qs, ...readQueryParameters(ctx.getNodeParameter('queryParameters', {})) };
	const baseUrl = await readBaseUrl(ctx, trigger.profile);
	const configuration = JSON.stringify({ event: event.value, baseUrl, qs, filters });
	const request = { method: 'GET' as const, path: event.path, qs, scope: event.scope };
	const list: EventList = {
		node: ctx.getNode(),
		serviceName: trigger.profile.serviceName,
		plural: event.plural,
		readPage: pageReader(ctx, trigger.profile, request, event.plural),
		budgetMs,
	};
	return { event, filters, configuration, list };
}

/**
 * One poll of a trigger's event: a manual run emits the newest matching record; the first poll
 * for a configuration remembers what exists and emits nothing; later polls emit what is new
 * (records not listed before, or changed statuses). Static data changes only after every
 * request succeeded, so a failed poll emits nothing and loses nothing.
 */
export async function pollTrigger(
	ctx: IPollFunctions,
	trigger: PollTrigger,
): Promise<INodeExecutionData[][] | null> {
	const manual = ctx.getMode() === 'manual';
	const budgetMs = manual ? undefined : pollBudgetMs(ctx);
	const { event, filters, configuration, list } = await readEventList(ctx, trigger, budgetMs);
	const staticData = ctx.getWorkflowStaticData('node');
	const stored = staticData[MEMORY_KEY];
	const change = event.statusChange;
	if (manual) {
		const newest = change
			? await newestStatus(list, stored, configuration, change, filters)
			: await newestNewRecord(list, filters);
		return newest ? [[{ json: newest, pairedItem: { item: 0 } }]] : null;
	}
	const poll = change
		? await pollStatusChanges(list, stored, configuration, change, filters)
		: await pollNewRecords(list, stored, configuration, filters);
	if (poll.warning) ctx.logger.warn(poll.warning);
	staticData[MEMORY_KEY] = poll.memory;
	const items = poll.records.map((json) => ({ json, pairedItem: { item: 0 } }));
	return items.length > 0 ? [items] : null;
}
