import type { IDataObject } from 'n8n-workflow';

import { fetchList, fetchListPage, type ListOptions, type ListPageResult } from './fetchList';
import { PERFORMANCE_LIMITS } from './performanceApi';
import { requestService } from './serviceRequest';
import type { ServiceContext, ServiceProfile, ServiceRequest } from './serviceTypes';

export const PERFORMANCE_SERVICE: ServiceProfile = {
	serviceName: 'Performance Service',
	credentialType: 'performanceServiceApi',
	credentialName: 'Performance Service API',
	secretField: 'apiToken',
};

/** The per-token request limit in words, for the message of a 429: every request counts against it. */
export const PERFORMANCE_RATE_LIMITS_TEXT = `${PERFORMANCE_LIMITS.requestsPerMinutePerToken} requests per minute for each token`;

function withLimits(request: ServiceRequest): ServiceRequest {
	return { rateLimitsText: PERFORMANCE_RATE_LIMITS_TEXT, ...request };
}

/** One request to the performance service; returns the parsed JSON body. */
export async function performanceRequest(
	ctx: ServiceContext,
	request: ServiceRequest,
): Promise<unknown> {
	return (await requestService(ctx, PERFORMANCE_SERVICE, withLimits(request))).body;
}

/** A list, one record per element whatever wrapper it comes in, following its pages as `options` say. */
export async function performanceList(
	ctx: ServiceContext,
	request: ServiceRequest,
	options: ListOptions,
): Promise<IDataObject[]> {
	return await fetchList(ctx, PERFORMANCE_SERVICE, withLimits(request), options);
}

/** One page of a list and the request for the next one. */
export async function performanceListPage(
	ctx: ServiceContext,
	request: ServiceRequest,
	plural: string,
): Promise<ListPageResult> {
	return await fetchListPage(ctx, PERFORMANCE_SERVICE, withLimits(request), plural);
}
