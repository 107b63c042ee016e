import { serviceClient } from './serviceClient';
import type { ServiceProfile } from './serviceRequest';

export const PERFORMANCE_SERVICE: ServiceProfile = {
	serviceName: 'Performance Service',
	credentialType: 'performanceServiceApi',
	credentialName: 'Performance Service API',
};

/** The per-token request limit; every request counts against it. */
export const PERFORMANCE_REQUEST_LIMIT = '1000 requests per minute for each token';

export const { request: performanceRequest, list: performanceList } = serviceClient(
	PERFORMANCE_SERVICE,
	PERFORMANCE_REQUEST_LIMIT,
);
