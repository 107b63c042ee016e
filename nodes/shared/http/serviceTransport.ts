import type { IDataObject } from 'n8n-workflow';

import {
	fetchList,
	fetchListPage,
	type ListOptions,
	type ListPageResult,
} from '../lists/pagedRequests';
import { requestService } from './serviceRequest';
import type { ServiceContext, ServiceProfile, ServiceRequest } from './serviceTypes';

/** A service's three ways to call it, each sending its requests through `requestService`. */
export interface ServiceTransport {
	/** One request; returns the parsed JSON body. */
	request(ctx: ServiceContext, request: ServiceRequest): Promise<unknown>;
	/** A list, one record per element whatever wrapper it comes in, following its pages as `options` say. */
	list(ctx: ServiceContext, request: ServiceRequest, options: ListOptions): Promise<IDataObject[]>;
	/** One page of a list and the request for the next one. */
	listPage(ctx: ServiceContext, request: ServiceRequest, plural: string): Promise<ListPageResult>;
}

/** The transport of one service. */
export function serviceTransport(profile: ServiceProfile): ServiceTransport {
	return {
		request: async (ctx, request) => (await requestService(ctx, profile, request)).body,
		list: async (ctx, request, options) => await fetchList(ctx, profile, request, options),
		listPage: async (ctx, request, plural) => await fetchListPage(ctx, profile, request, plural),
	};
}
