import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { isRecord, recordTime } from '../../../shared/lists/recordFields';

function pick(record: IDataObject, keys: string[]): IDataObject {
	const picked: IDataObject = {};
	for (const key of keys) if (record[key] !== undefined) picked[key] = record[key];
	return picked;
}

/** Newest first by `createdAt`; records without one last, in their order. */
function newestFirst(records: IDataObject[]): IDataObject[] {
	const time = (record: IDataObject) => recordTime(record, ['createdAt']) ?? -Infinity;
	return [...records].sort((a, b) => (time(a) === time(b) ? 0 : time(b) - time(a)));
}

/** The newest record's `keys` (the whole record when it has none of them); null without records. */
function summarizeNewest(records: IDataObject[], keys: string[]): IDataObject | null {
	const [newest] = newestFirst(records);
	if (!newest) return null;
	const summary = pick(newest, keys);
	return Object.keys(summary).length > 0 ? summary : newest;
}

/** Score of the newest audit of each strategy, e.g. `{ mobile: 94, desktop: 98 }`. */
function latestScores(audits: IDataObject[]): IDataObject {
	const scores: IDataObject = {};
	for (const { strategy, score } of newestFirst(audits)) {
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
		latestAudit: summarizeNewest(audits, ['id', 'strategy', 'score', 'createdAt']),
		latestScores: latestScores(audits),
	};
	if (Array.isArray(site.events)) {
		const events = site.events.filter(isRecord);
		simplified.eventCount = events.length;
		simplified.latestEvent = summarizeNewest(events, ['id', 'type', 'message', 'createdAt']);
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
