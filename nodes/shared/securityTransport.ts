import { serviceClient } from './serviceClient';
import type { ServiceProfile } from './serviceRequest';

export const SECURITY_SERVICE: ServiceProfile = {
	serviceName: 'Security Service',
	credentialType: 'securityServiceApi',
	credentialName: 'Security Service API',
	secretName: 'API key',
};

/** The plan limits; the service does not say whether they count per key or per tenant. */
export const SECURITY_REQUEST_LIMIT =
	'100 requests per minute on the Standard plan, 500 on Agency, unlimited on Enterprise';

export const { request: securityRequest, list: securityList } = serviceClient(
	SECURITY_SERVICE,
	SECURITY_REQUEST_LIMIT,
);
