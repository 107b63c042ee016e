import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { readBaseUrl } from '../http/baseUrl';
import type { ServiceTransport } from '../http/serviceTransport';
import type { ServiceProfile } from '../http/serviceTypes';
import { newestListed } from './manualRun';
import { newestRecord } from './newestRecord';
import { ListReader, pollBudgetMs, wholeList, type PageSource } from './pageWalk';
import type { PollOutcome } from './pollDecisions';
import type { PollEvent, StatusChange } from './pollEvents';
import { configurationFingerprint, readMemory, storedMemory } from './pollMemory';
import { firstPoll, nextPoll } from './pollNewRecords';
import { matchesFilters, type RecordFilter } from './recordFilters';
import { pollStatuses } from './statusChanges';
import { readStatusMemory, storedStatusMemory, type StatusMemory } from './statusMemory';

/** Key of the memory in the node's static data. */
const MEMORY_KEY = 'seen';

/** A service a polling trigger reads lists from: its profile and its transport's page reader. */
export interface PollService {
	profile: ServiceProfile;
	listPage: ServiceTransport['listPage'];
}

/** What the user configured beside the event. */
export interface PollSettings {
	/** Query parameters sent with the list's first page, after the event's own. */
	qs: IDataObject;
	filters: RecordFilter[];
}

type PollResult = INodeExecutionData[][] | null;

function toItems(records: IDataObject[]): PollResult {
	return records.length > 0
		? [records.map((record) => ({ json: record, pairedItem: { item: 0 } }))]
		: null;
}

/** A reader of the event's list; `budgeted`: within the time n8n gives a poll. */
function listReader(
	ctx: IPollFunctions,
	service: PollService,
	event: PollEvent,
	qs: IDataObject,
	budgeted: boolean,
): ListReader {
	const fetchPage: PageSource = async (ref) => {
		const request = {
			method: 'GET' as const,
			path: event.path,
			url: ref?.url,
			qs: ref ? ref.qs : qs,
			scope: event.scope,
		};
		const page = await service.listPage(ctx, request, event.plural);
		return { records: page.records, next: page.next && { url: page.next.url, qs: page.next.qs } };
	};
	return new ListReader(
		ctx.getNode(),
		service.profile.serviceName,
		event.plural,
		fetchPage,
		budgeted ? pollBudgetMs(ctx) : undefined,
	);
}

/** Tells n8n's log which records a poll may have missed because the list no longer reaches back to those seen before. */
function warnLostTrack(
	ctx: IPollFunctions,
	event: PollEvent,
	newestSeen: string,
	outcome: PollOutcome,
): void {
	const listed = outcome.emit.map(({ id }) => id);
	const range = listed.length > 0 ? ` (${listed[0]} … ${listed[listed.length - 1]})` : '';
	ctx.logger.warn(
		`${ctx.getNode().name}: the list of ${event.plural} no longer shows any of those seen before (the newest was ${newestSeen}). The poll emitted the ${listed.length} new ${event.plural} it sees${range}; ${event.plural} added after ${newestSeen} that the list no longer shows may have been missed.`,
	);
}

async function pollNewRecords(
	ctx: IPollFunctions,
	reader: (budgeted: boolean) => ListReader,
	configuration: string,
	event: PollEvent,
	wanted: (record: IDataObject) => boolean,
): Promise<PollResult> {
	const staticData = ctx.getWorkflowStaticData('node');
	const memory = readMemory(staticData[MEMORY_KEY], configuration);
	if (ctx.getMode() === 'manual') {
		const newest = await newestListed(reader(false), wanted, memory);
		return newest ? toItems([newest.record]) : null;
	}
	if (!memory) {
		const first = await firstPoll(
			reader(true),
			configurationFingerprint(configuration),
			Date.now(),
		);
		staticData[MEMORY_KEY] = storedMemory(first);
		return null;
	}
	const outcome = await nextPoll(reader(true), memory, wanted);
	if (outcome.lostTrack) warnLostTrack(ctx, event, memory.ids[0], outcome);
	staticData[MEMORY_KEY] = storedMemory(outcome.memory);
	return toItems(outcome.emit.map(({ record }) => record));
}

/** A manual run's test event: the newest listed record the filters accept, with its remembered status as the previous one. */
async function newestStatus(
	reader: ListReader,
	memory: StatusMemory | undefined,
	change: StatusChange,
	wanted: (record: IDataObject) => boolean,
): Promise<PollResult> {
	const records = await wholeList(reader);
	const newest = newestRecord(records.filter(({ record }) => wanted(record)));
	if (!newest) return null;
	const previous = memory?.statuses.get(newest.id) ?? null;
	return toItems([{ ...newest.record, [change.previousField]: previous }]);
}

async function pollStatusChanges(
	ctx: IPollFunctions,
	reader: (budgeted: boolean) => ListReader,
	configuration: string,
	event: PollEvent,
	change: StatusChange,
	wanted: (record: IDataObject) => boolean,
): Promise<PollResult> {
	const staticData = ctx.getWorkflowStaticData('node');
	const memory = readStatusMemory(staticData[MEMORY_KEY], configuration);
	if (ctx.getMode() === 'manual') return await newestStatus(reader(false), memory, change, wanted);
	const fingerprint = configurationFingerprint(configuration);
	const outcome = await pollStatuses(reader(true), memory, change, wanted, fingerprint);
	if (outcome.unwatched > 0) {
		ctx.logger.warn(
			`${ctx.getNode().name}: the list holds ${outcome.unwatched} more ${event.plural} than the trigger watches; their ${change.field} changes are not emitted.`,
		);
	}
	staticData[MEMORY_KEY] = storedStatusMemory(outcome.memory);
	return toItems(outcome.emit);
}

/**
 * One poll of a trigger's event: a manual run emits the newest matching record; the first poll
 * for a configuration remembers what exists and emits nothing; later polls emit what is new
 * (records not listed before, or changed statuses). Static data changes only after every
 * request succeeded, so a failed poll emits nothing and loses nothing.
 */
export async function pollEvent(
	ctx: IPollFunctions,
	service: PollService,
	event: PollEvent,
	settings: PollSettings,
): Promise<PollResult> {
	const { filters } = settings;
	const qs = { ...event.qs, ...settings.qs };
	const wanted = (record: IDataObject) => matchesFilters(record, filters);
	const baseUrl = await readBaseUrl(ctx, service.profile);
	const configuration = JSON.stringify({ event: event.value, baseUrl, qs, filters });
	const reader = (budgeted: boolean) => listReader(ctx, service, event, qs, budgeted);
	if (event.statusChange) {
		return await pollStatusChanges(ctx, reader, configuration, event, event.statusChange, wanted);
	}
	return await pollNewRecords(ctx, reader, configuration, event, wanted);
}
