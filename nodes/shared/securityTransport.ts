import type { IDataObject } from 'n8n-workflow';

import { fetchList, type ListOptions } from './fetchList';
import { requestService, type ServiceContext, type ServiceProfile, type ServiceRequest } from './serviceRequest';

export const SECURITY_SERVICE: ServiceProfile = {
	serviceName: 'Security Service',
	credentialType: 'securityServiceApi',
	credentialName: 'Security Service API',
	secretName: 'API key',
};

/** The plan limits; the service does not say whether they count per key or per tenant. */
export const SECURITY_REQUEST_LIMIT =
	'100 requests per minute on the Standard plan, 500 on Agency, unlimited on Enterprise';

/** A request to the security service; returns the parsed JSON body. */
export async function securityRequest(ctx: ServiceContext, request: ServiceRequest): Promise<unknown> {
	const response = await requestService(ctx, SECURITY_SERVICE, { limits: SECURITY_REQUEST_LIMIT, ...request });
	return response.body;
}

/** A list from the security service in any shape, following its pagination hints for Return All. */
export async function securityList(
	ctx: ServiceContext,
	request: ServiceRequest,
	options: ListOptions,
): Promise<IDataObject[]> {
	return await fetchList(ctx, SECURITY_SERVICE, { limits: SECURITY_REQUEST_LIMIT, ...request }, options);
}
