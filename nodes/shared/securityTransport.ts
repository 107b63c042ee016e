import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { fetchList, fetchListPage, type ListOptions, type ListPageResult } from './fetchList';
import { perMinute } from './pacing/pacers';
import type { PlanRate } from './pacing/requestPacer';
import { SECURITY_PLAN_LIMITS } from './securityApi';
import { requestService } from './serviceRequest';
import type { ServiceContext, ServiceProfile, ServiceRequest } from './serviceTypes';

type SecurityPlan = keyof typeof SECURITY_PLAN_LIMITS;

/** The rate of the credential's plan; a missing or unknown plan counts as Standard, the strictest. */
export function securityPlanRate(
	credentials: ICredentialDataDecryptedObject,
): PlanRate | undefined {
	const plans = Object.keys(SECURITY_PLAN_LIMITS) as SecurityPlan[];
	const plan = plans.find((name) => name === credentials.plan) ?? 'standard';
	return perMinute(SECURITY_PLAN_LIMITS[plan]);
}

export const SECURITY_SERVICE: ServiceProfile = {
	serviceName: 'Security Service',
	credentialType: 'securityServiceApi',
	credentialName: 'Security Service API',
	secretName: 'API key',
	secretField: 'apiKey',
	planRate: securityPlanRate,
};

/** The plan limits in words, for the message of a 429; the service does not say whether they count per key or per tenant. */
export const SECURITY_RATE_LIMITS_TEXT = `${SECURITY_PLAN_LIMITS.standard} requests per minute on the Standard plan, ${SECURITY_PLAN_LIMITS.agency} on Agency, unlimited on Enterprise`;

function withLimits(request: ServiceRequest): ServiceRequest {
	return { rateLimitsText: SECURITY_RATE_LIMITS_TEXT, ...request };
}

/** One request to the security service; returns the parsed JSON body. */
export async function securityRequest(
	ctx: ServiceContext,
	request: ServiceRequest,
): Promise<unknown> {
	return (await requestService(ctx, SECURITY_SERVICE, withLimits(request))).body;
}

/** A list, one record per element whatever wrapper it comes in, following its pages as `options` say. */
export async function securityList(
	ctx: ServiceContext,
	request: ServiceRequest,
	options: ListOptions,
): Promise<IDataObject[]> {
	return await fetchList(ctx, SECURITY_SERVICE, withLimits(request), options);
}

/** One page of a list and the request for the next one. */
export async function securityListPage(
	ctx: ServiceContext,
	request: ServiceRequest,
	plural: string,
): Promise<ListPageResult> {
	return await fetchListPage(ctx, SECURITY_SERVICE, withLimits(request), plural);
}
