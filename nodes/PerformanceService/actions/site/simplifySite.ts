import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { isRecord, recordTime } from '../../../shared/lists/recordFields';

function pick(record: IDataObject, keys: string[]): IDataObject {
	const picked: IDataObject = {};
	for (const key of keys) if (record[key] !== undefined) picked[key] = record[key];
	return picked;
}

/** A record's `createdAt` in epoch milliseconds; records without one sort first. */
function timeOf(record: IDataObject): number {
	return recordTime(record, ['createdAt']) ?? -Infinity;
}

/** The newest record by `createdAt`; the first one when none carries a date. */
function newest(records: IDataObject[]): IDataObject | undefined {
	return records.reduce<IDataObject | undefined>(
		(best, record) => (best === undefined || timeOf(record) > timeOf(best) ? record : best),
		undefined,
	);
}

function summarize(record: IDataObject | undefined, keys: string[]): IDataObject | null {
	if (!record) return null;
	const summary = pick(record, keys);
	return Object.keys(summary).length > 0 ? summary : record;
}

/** Score of the newest audit of each strategy, e.g. `{ mobile: 94, desktop: 98 }`. */
function latestScores(audits: IDataObject[]): IDataObject {
	const scores: IDataObject = {};
	const byNewest = [...audits].sort((a, b) => timeOf(b) - timeOf(a));
	for (const audit of byNewest) {
		const { strategy, score } = audit;
		if (typeof strategy === 'string' && typeof score === 'number' && !(strategy in scores)) {
			scores[strategy] = score;
		}
	}
	return scores;
}

/** A site without its audit (and event) arrays: counts and the newest entry instead. */
export function simplifySite(site: IDataObject): IDataObject {
	const audits = Array.isArray(site.audits) ? site.audits.filter(isRecord) : [];
	const simplified: IDataObject = {
		...pick(site, ['id', 'name', 'hostname', 'status']),
		auditCount: audits.length,
		latestAudit: summarize(newest(audits), ['id', 'strategy', 'score', 'createdAt']),
		latestScores: latestScores(audits),
	};
	if (Array.isArray(site.events)) {
		const events = site.events.filter(isRecord);
		simplified.eventCount = events.length;
		simplified.latestEvent = summarize(newest(events), ['id', 'type', 'message', 'createdAt']);
	}
	return simplified;
}

/** Site → Get Many: on by default, lists of sites with every audit are large. */
export const simplifyGetManyProperty: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description:
		'Whether to return a simplified version of each site (ID, name, hostname, status, audit count, latest audit and latest score per strategy) instead of the raw data with every audit',
	displayOptions: { show: { resource: ['site'], operation: ['getAll'] } },
};

/** Site → Get: off by default, Get returns the site with its audits and events. */
export const simplifyGetProperty: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: false,
	description:
		'Whether to return a simplified version of the site (ID, name, hostname, status, audit and event counts, latest audit, latest event and latest score per strategy) instead of the raw data with every audit and event',
	displayOptions: { show: { resource: ['site'], operation: ['get'] } },
};
