import type { ServiceName } from './types.mts';

/** Where each service and the control API are served below the origin. */
export const MOUNTS: Record<ServiceName | 'control', string> = {
	performance: '/performance/v1',
	security: '/security/v1',
	control: '/_control',
};
