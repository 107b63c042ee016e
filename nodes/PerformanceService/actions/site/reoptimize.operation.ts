import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { PERFORMANCE_LIMITS, PERFORMANCE_SCOPES } from '../../transport/serviceValues';
import { requestService } from '../../../shared/http/serviceRequest';
import { PERFORMANCE_RATE_LIMITS_TEXT, PERFORMANCE_SERVICE } from '../../transport';
import { unwrapRecord } from '../../../shared/lists/recordFields';
import { readSiteId, siteIdProperty } from './siteId';

export const option = {
	name: 'Reoptimize',
	action: 'Reoptimize site',
	description:
		'Queue critical CSS regeneration, an unused CSS scan and fresh audits for a site (needs the audits:write scope; 20 per site per hour)',
};

/** Each item sends a write: one at a time unless Parallel Requests says otherwise. */
export const writes = true;

export const description: INodeProperties[] = [
	siteIdProperty(
		'reoptimize',
		'The site to reoptimize. Each site can be reoptimized 20 times per hour; the token needs the audits:write scope.',
	),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const site = readSiteId(this, itemIndex);
	const { body } = await requestService(this, PERFORMANCE_SERVICE, {
		method: 'POST',
		path: `/sites/${site.segment}/reoptimize`,
		itemIndex,
		scope: PERFORMANCE_SCOPES.auditsWrite,
		addressedRecord: `site "${site.id}"`,
		rateLimitsText: `${PERFORMANCE_LIMITS.reoptimizationsPerSitePerHour} reoptimizations per hour for each site, and ${PERFORMANCE_RATE_LIMITS_TEXT}`,
		// The answer's X-RateLimit-* describe this site's hour, not the token's minute.
		ownRateLimit: true,
	});
	return { ...unwrapRecord(body, 'reoptimization'), siteId: site.id };
}
