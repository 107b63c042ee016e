import type { IDataObject } from 'n8n-workflow';

import { locatorListSearch } from '../../shared/lists/pickerSearch';
import { recordContains, textOf } from '../../shared/lists/recordFields';
import { SECURITY_SERVICE } from '../transport';

const CLOSED_STATES = ['resolved', 'closed', 'fixed', 'dismissed', 'ignored'];

/** Unresolved unless its status says otherwise, it is flagged resolved, or it has a resolution time. */
function isUnresolved(threat: IDataObject): boolean {
	const status = textOf(threat.status)?.toLowerCase();
	if (status !== undefined && CLOSED_STATES.includes(status)) return false;
	if (threat.resolved === true) return false;
	return textOf(threat.resolvedAt ?? threat.resolved_at) === undefined;
}

function label(threat: IDataObject, id: string): string {
	const title = textOf(threat.title) ?? textOf(threat.name) ?? textOf(threat.type) ?? id;
	const details = [textOf(threat.severity), textOf(threat.siteId ?? threat.site_id), id].filter(
		Boolean,
	);
	return `${title} (${details.join(', ')})`;
}

/** Threats not yet resolved, for the "Threat" resource locator; searchable by title, type, severity, site and ID. */
export const searchUnresolvedThreats = locatorListSearch({
	profile: SECURITY_SERVICE,
	path: '/threats',
	plural: 'threats',
	accepts: (threat, filter) =>
		isUnresolved(threat) &&
		recordContains(threat, ['title', 'name', 'type', 'severity', 'siteId', 'id'], filter),
	label,
});
