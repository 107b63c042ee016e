import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	readLocatorPathId,
	resourceLocatorProperty,
	type PathId,
} from '../../../shared/parameters/resourceLocator';

/** The "Site" resource locator: a searchable list of sites, or an ID. */
export function siteIdProperty(operation: string, description: string): INodeProperties {
	return resourceLocatorProperty({
		displayName: 'Site',
		name: 'siteId',
		description,
		resource: 'site',
		operation,
		searchListMethod: 'searchSites',
		listPlaceholder: 'Select a site...',
		idPlaceholder: 'e.g. site_1',
		idValidation: [
			{
				type: 'regex',
				properties: {
					regex: '^(?!.*\\.\\.)[^/\\\\]+$',
					errorMessage: 'A site ID cannot contain "/", "\\" or ".."',
				},
			},
		],
	});
}

export function readSiteId(ctx: IExecuteFunctions, itemIndex: number): PathId {
	return readLocatorPathId(ctx, 'siteId', 'site ID', itemIndex);
}
