import { requestService, type ServiceContext, type ServiceProfile, type ServiceRequest } from './serviceRequest';

export const SECURITY_SERVICE: ServiceProfile = {
	serviceName: 'Security Service',
	credentialType: 'securityServiceApi',
	credentialName: 'Security Service API',
};

/** A request to the security service; returns the parsed JSON body. */
export async function securityRequest(ctx: ServiceContext, request: ServiceRequest): Promise<unknown> {
	const response = await requestService(ctx, SECURITY_SERVICE, request);
	return response.body;
}
