import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { PERFORMANCE_REQUEST_LIMIT, performanceRequest } from '../../../shared/performanceTransport';
import { responseRecord } from '../responseRecord';
import { readSiteId, siteIdProperty } from './siteId';

export const description: INodeProperties[] = [
	siteIdProperty(
		'reoptimize',
		'The site to reoptimize. Each site can be reoptimized 20 times per hour; the token needs the audits:write scope.',
	),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const site = readSiteId(this, itemIndex);
	const body = await performanceRequest(this, {
		method: 'POST',
		path: `/sites/${site.segment}/reoptimize`,
		itemIndex,
		scope: 'audits:write',
		subject: `site "${site.id}"`,
		limits: `20 reoptimizations per hour for each site, and ${PERFORMANCE_REQUEST_LIMIT}`,
	});
	return { ...responseRecord(body, 'reoptimization'), siteId: site.id };
}
