import type { IDataObject } from 'n8n-workflow';

import { fetchList, type ListOptions } from './fetchList';
import { requestService, type ServiceContext, type ServiceProfile, type ServiceRequest } from './serviceRequest';

export interface ServiceClient {
	/** A request to the service; returns the parsed JSON body. */
	request: (ctx: ServiceContext, request: ServiceRequest) => Promise<unknown>;
	/** A list from the service, one record per element, whatever wrapper it comes in. */
	list: (ctx: ServiceContext, request: ServiceRequest, options: ListOptions) => Promise<IDataObject[]>;
}

/** Requests to one service, each counting against `limits` unless the request names its own. */
export function serviceClient(profile: ServiceProfile, limits: string): ServiceClient {
	return {
		request: async (ctx, request) => (await requestService(ctx, profile, { limits, ...request })).body,
		list: async (ctx, request, options) => await fetchList(ctx, profile, { limits, ...request }, options),
	};
}
