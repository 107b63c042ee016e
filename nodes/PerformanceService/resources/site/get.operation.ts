import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { performanceRequest } from '../../../shared/performanceTransport';
import { unwrapRecord } from '../../../shared/records';
import { readSiteId, siteIdProperty } from './siteId';
import { simplifyProperty, simplifySite } from './simplifySite';

export const description: INodeProperties[] = [
	siteIdProperty('get', 'The site to read, with its audits and events'),
	simplifyProperty('get'),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const site = readSiteId(this, itemIndex);
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;
	const body = await performanceRequest(this, {
		method: 'GET',
		path: `/sites/${site.segment}`,
		itemIndex,
		scope: 'sites:read',
		addressedRecord: `site "${site.id}"`,
	});
	const record = unwrapRecord(body, 'site');
	return simplify ? simplifySite(record) : record;
}
