import { requestService, type ServiceContext, type ServiceProfile, type ServiceRequest } from './serviceRequest';

export const PERFORMANCE_SERVICE: ServiceProfile = {
	serviceName: 'Performance Service',
	credentialType: 'performanceServiceApi',
	credentialName: 'Performance Service API',
};

/** A request to the performance service; returns the parsed JSON body. */
export async function performanceRequest(ctx: ServiceContext, request: ServiceRequest): Promise<unknown> {
	const response = await requestService(ctx, PERFORMANCE_SERVICE, request);
	return response.body;
}
