import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { listSitesTest } from '../nodes/shared/http/credentialTest';
import {
	DEFAULT_SECURITY_PLAN,
	planDisplayName,
	SECURITY_PLAN_LIMITS,
	SECURITY_PLANS,
} from '../nodes/SecurityService/transport/planLimits';

export class SecurityServiceApi implements ICredentialType {
	name = 'securityServiceApi';

	displayName = 'Security Service API';

	icon: Icon = {
		light: 'file:../nodes/SecurityService/securityService.svg',
		dark: 'file:../nodes/SecurityService/securityService.dark.svg',
	};

	documentationUrl =
		'https://github.com/site-performance-security/n8n-nodes-site-performance-security#security-service-api-credential';

	httpRequestNode = {
		name: 'Security Service',
		docsUrl:
			'https://github.com/site-performance-security/n8n-nodes-site-performance-security#security-service',
		apiBaseUrlPlaceholder: 'https://security.example.com/v1/',
	};

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://security.example.com/v1',
			description:
				'Base address of the API including the version segment, without the /api prefix. A trailing slash is fine.',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'Tenant key from the dashboard settings. Keys are scoped to the tenant and can be rotated there at any time; update this credential after a rotation.',
		},
		{
			displayName: 'Plan',
			name: 'plan',
			type: 'options',
			options: SECURITY_PLANS.map((plan) => ({ name: planDisplayName(plan), value: plan })),
			default: DEFAULT_SECURITY_PLAN,
			description:
				"The tenant's plan. The nodes keep every request made with this credential within the plan's limit, shared by all workflows in this n8n instance.",
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: { headers: { Authorization: '=Bearer {{$credentials.apiKey}}' } },
	};

	test: ICredentialTestRequest = listSitesTest(
		{
			401: 'The service rejected the API key: check the key in the dashboard settings (it may have been rotated).',
			403: 'The API key is not allowed to list sites: check the key and its tenant.',
			404: 'No API answered at <base URL>/sites: check the base URL (with the version segment, without /api).',
			429: `The key works, but the plan's request limit is used up right now (Standard ${SECURITY_PLAN_LIMITS.standard}, Agency ${SECURITY_PLAN_LIMITS.agency} per minute): try again in a minute.`,
		},
		"Something answered at <base URL>/sites, but not with the Security Service's JSON (a dashboard or login page?): check the base URL (with the version segment, without /api).",
	);
}
