import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { listSitesTest } from '../nodes/shared/http/credentialTest';

const CHECK_BASE_URL =
	'check the base URL, including the version segment (e.g. https://api.example.com/v1)';

export class PerformanceServiceApi implements ICredentialType {
	name = 'performanceServiceApi';

	displayName = 'Performance Service API';

	icon: Icon = {
		light: 'file:../nodes/PerformanceService/performanceService.svg',
		dark: 'file:../nodes/PerformanceService/performanceService.dark.svg',
	};

	documentationUrl =
		'https://github.com/site-performance-security/n8n-nodes-site-performance-security#performance-service-api-credential';

	httpRequestNode = {
		name: 'Performance Service',
		docsUrl:
			'https://github.com/site-performance-security/n8n-nodes-site-performance-security#performance-service',
		apiBaseUrlPlaceholder: 'https://api.example.com/v1/',
	};

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://api.example.com/v1',
			description:
				'Base address of the API, including the version segment (e.g. /v1). A trailing slash is fine.',
		},
		{
			displayName: 'API Token',
			name: 'apiToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'Personal API token. A token created without explicit scopes can read sites and audits; Reoptimize needs the audits:write scope.',
		},
		{
			displayName: 'Webhook Signing Secret',
			name: 'webhookSigningSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'Only for the Performance Service Trigger: the signing secret entered next to the webhook URL in Optimize → Integrations. While it is empty the trigger cannot be activated and rejects every delivery.',
		},
		{
			displayName: 'Previous Webhook Signing Secret',
			name: 'previousWebhookSigningSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				"Optional, for rotating the secret without missed deliveries: while 'Webhook Signing Secret' holds the new secret, deliveries signed with this older one are accepted too. Clear it once the service uses the new secret.",
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: { headers: { Authorization: '=Bearer {{$credentials.apiToken}}' } },
	};

	test: ICredentialTestRequest = listSitesTest(
		{
			401: 'The service rejected the API token (auth_invalid): check that the token is complete and has not been revoked.',
			403: 'The API token is valid but may not read sites: use a token with the sites:read scope.',
			404: `No API answered at <base URL>/sites: ${CHECK_BASE_URL}.`,
		},
		`Something answered at <base URL>/sites, but not with JSON (a web page or a login page?): ${CHECK_BASE_URL}.`,
		`Something answered at <base URL>/sites, but not with the Performance Service's list of sites: ${CHECK_BASE_URL}.`,
	);
}
