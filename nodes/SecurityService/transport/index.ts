import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import type { ServiceProfile } from '../../shared/http/serviceTypes';
import { DEFAULT_SECURITY_PLAN, SECURITY_PLAN_LIMITS, SECURITY_PLANS } from './planLimits';

/** The requests per minute of the credential's plan; a missing or unknown plan counts as Standard, the strictest. */
export function securityPlanPerMinute(
	credentials: ICredentialDataDecryptedObject,
): number | undefined {
	const plan = SECURITY_PLANS.find((name) => name === credentials.plan) ?? DEFAULT_SECURITY_PLAN;
	return SECURITY_PLAN_LIMITS[plan];
}

export const SECURITY_SERVICE: ServiceProfile = {
	serviceName: 'Security Service',
	credentialType: 'securityServiceApi',
	credentialName: 'Security Service API',
	secretName: 'API key',
	secretField: 'apiKey',
	planPerMinute: securityPlanPerMinute,
	// The service does not say whether the plan limits count per key or per tenant.
	rateLimitsText: `${SECURITY_PLAN_LIMITS.standard} requests per minute on the Standard plan, ${SECURITY_PLAN_LIMITS.agency} on Agency, unlimited on Enterprise`,
};
