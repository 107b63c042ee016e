import type { IDataObject } from 'n8n-workflow';

import { fetchList, type ListOptions } from './fetchList';
import { requestService, type ServiceContext, type ServiceProfile, type ServiceRequest } from './serviceRequest';

export const PERFORMANCE_SERVICE: ServiceProfile = {
	serviceName: 'Performance Service',
	credentialType: 'performanceServiceApi',
	credentialName: 'Performance Service API',
};

/** The per-token request limit; every request counts against it. */
export const PERFORMANCE_REQUEST_LIMIT = '1000 requests per minute for each token';

/** A request to the performance service; returns the parsed JSON body. */
export async function performanceRequest(ctx: ServiceContext, request: ServiceRequest): Promise<unknown> {
	const response = await requestService(ctx, PERFORMANCE_SERVICE, {
		limits: PERFORMANCE_REQUEST_LIMIT,
		...request,
	});
	return response.body;
}

/** A list from the performance service, one record per element, whatever wrapper it comes in. */
export async function performanceList(
	ctx: ServiceContext,
	request: ServiceRequest,
	options: ListOptions,
): Promise<IDataObject[]> {
	return await fetchList(ctx, PERFORMANCE_SERVICE, { limits: PERFORMANCE_REQUEST_LIMIT, ...request }, options);
}
