import type { ServiceProfile } from '../../shared/http/serviceTypes';
import { PERFORMANCE_LIMITS } from './serviceValues';

/** The per-token request limit in words: every request counts against it. */
export const PERFORMANCE_RATE_LIMITS_TEXT = `${PERFORMANCE_LIMITS.requestsPerMinutePerToken} requests per minute for each token`;

export const PERFORMANCE_SERVICE: ServiceProfile = {
	serviceName: 'Performance Service',
	credentialType: 'performanceServiceApi',
	credentialName: 'Performance Service API',
	secretField: 'apiToken',
	rateLimitsText: PERFORMANCE_RATE_LIMITS_TEXT,
};
