import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { recordContains, searchListPages, textOf } from './searchListPages';

const CLOSED_STATES = ['resolved', 'closed', 'fixed', 'dismissed', 'ignored'];

/** Unresolved unless its status says otherwise, it is flagged resolved, or it has a resolution time. */
export function isUnresolved(threat: IDataObject): boolean {
	const status = textOf(threat.status)?.toLowerCase();
	if (status !== undefined && CLOSED_STATES.includes(status)) return false;
	if (threat.resolved === true) return false;
	return textOf(threat.resolvedAt ?? threat.resolved_at) === undefined;
}

function label(threat: IDataObject, id: string): string {
	const title = textOf(threat.title) ?? textOf(threat.name) ?? textOf(threat.type) ?? id;
	const details = [textOf(threat.severity), textOf(threat.siteId ?? threat.site_id), id].filter(Boolean);
	return `${title} (${details.join(', ')})`;
}

/** Threats not yet resolved, for the "Threat" resource locator; searchable by title, type, severity, site and ID. */
export async function searchUnresolvedThreats(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const { matched, paginationToken: next } = await searchListPages(
		this,
		{ path: '/threats', plural: 'threats' },
		paginationToken,
		(threat) =>
			textOf(threat.id) !== undefined &&
			isUnresolved(threat) &&
			recordContains(threat, ['title', 'name', 'type', 'severity', 'siteId', 'id'], filter),
	);
	return {
		results: matched.map((threat) => {
			const id = textOf(threat.id) as string;
			return { name: label(threat, id), value: id };
		}),
		paginationToken: next,
	};
}
