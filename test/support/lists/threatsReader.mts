import type { INode } from 'n8n-workflow';

import type { ServiceProfile } from '../../../nodes/shared/http/serviceTypes.ts';

/** The node and service a unit test of the list reader reads threats for. */
export const node = {
	name: 'Threats',
	type: 'test',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
} as INode;

export const profile = {
	serviceName: 'Security Service',
	credentialName: 'Security Service',
} as ServiceProfile;
