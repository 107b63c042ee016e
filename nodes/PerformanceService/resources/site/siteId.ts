import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { toPathSegment } from '../../../shared/ids';

export interface SiteReference {
	/** The ID as the user gave it (trimmed), for messages and output. */
	id: string;
	/** The ID encoded for the request path. */
	segment: string;
}

/** The "Site" resource locator: a searchable list of sites, or an ID. */
export function siteIdProperty(operation: string, description: string): INodeProperties {
	return {
		displayName: 'Site',
		name: 'siteId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description,
		displayOptions: { show: { resource: ['site'], operation: [operation] } },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a site...',
				typeOptions: { searchListMethod: 'searchSites', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. site_1',
				validation: [
					{
						type: 'regex',
						properties: {
							regex: '^(?!.*\\.\\.)[^/\\\\]+$',
							errorMessage: 'A site ID cannot contain "/", "\\" or ".."',
						},
					},
				],
			},
		],
	};
}

/** Reads the site ID of an item; refuses an empty or path-changing ID before any request. */
export function readSiteId(ctx: IExecuteFunctions, itemIndex: number): SiteReference {
	const value = ctx.getNodeParameter('siteId', itemIndex, '', { extractValue: true });
	const segment = toPathSegment(ctx.getNode(), value, 'site ID', itemIndex);
	return { id: decodeURIComponent(segment), segment };
}
