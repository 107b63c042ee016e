import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readBoolean } from '../../../shared/parameters/values';
import { PERFORMANCE_SCOPES } from '../../transport/serviceValues';
import { requestService } from '../../../shared/http/serviceRequest';
import { PERFORMANCE_SERVICE } from '../../transport';
import { unwrapRecord } from '../../../shared/lists/recordFields';
import { readSiteId, siteIdProperty } from './siteId';
import { simplifyGetProperty, simplifySite } from './simplifySite';

export const option = {
	name: 'Get',
	action: 'Get site',
	description: 'Read one site by ID with its status, audits and events',
};

export const description: INodeProperties[] = [
	siteIdProperty('get', 'The site to read, with its audits and events'),
	simplifyGetProperty,
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const site = readSiteId(this, itemIndex);
	const simplify = readBoolean(this, 'simplify', 'Simplify', itemIndex, false);
	const { body } = await requestService(this, PERFORMANCE_SERVICE, {
		method: 'GET',
		path: `/sites/${site.segment}`,
		itemIndex,
		scope: PERFORMANCE_SCOPES.sitesRead,
		addressedRecord: `site "${site.id}"`,
	});
	const record = unwrapRecord(body, 'site');
	return simplify ? simplifySite(record) : record;
}
