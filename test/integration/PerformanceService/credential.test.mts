import type { ICredentialType, IHttpRequestOptions } from 'n8n-workflow';
import { beforeAll, describe, expect, it } from 'vitest';

import { testCredential } from '../../support/harness/credentialTest.mts';
import { loadPackageTypes } from '../../support/harness/packageTypes.mts';
import { startScriptedService } from '../../support/harness/scriptedService.mts';
import { callsTo, closedPort, withSandbox } from '../../support/harness/sandbox.mts';
import { expectFailuresToldApart } from '../credentialFailures.mts';

const sandbox = withSandbox();

const test = (baseUrl: string, apiToken: string) =>
	testCredential('performanceServiceApi', { baseUrl, apiToken });

describe('the credential test (GET <base URL>/sites)', () => {
	it('succeeds with a valid token, sending it as a bearer token', async () => {
		expect(await test(sandbox.performanceUrl, sandbox.tokens.readOnly)).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		expect(callsTo(sandbox, 'performance')).toEqual([
			{ method: 'GET', path: '/sites', query: {}, auth: `Bearer ${sandbox.tokens.readOnly}` },
		]);
	});

	it('succeeds with a trailing slash on the base URL, without a double slash', async () => {
		for (const baseUrl of [
			`${sandbox.performanceUrl}/`,
			`${sandbox.performanceUrl}//`,
			` ${sandbox.performanceUrl}/ `,
		]) {
			expect((await test(baseUrl, sandbox.tokens.readOnly)).status).toBe('OK');
		}
		expect(callsTo(sandbox, 'performance').map((call) => call.path)).toEqual([
			'/sites',
			'/sites',
			'/sites',
		]);
	});

	it('tells a bad token, a wrong base URL and an unreachable host apart', async () => {
		const port = await closedPort();
		const badToken = await test(sandbox.performanceUrl, 'perf_not_a_token');
		const wrongBaseUrl = await test(`${sandbox.origin}/performance`, sandbox.tokens.readOnly);
		const unreachable = await test(`http://127.0.0.1:${port}/v1`, sandbox.tokens.readOnly);

		expectFailuresToldApart(
			{ rejected: badToken, wrongBaseUrl, unreachable },
			{
				rejected:
					'The service rejected the API token (auth_invalid): check that the token is complete and has not been revoked.',
				wrongBaseUrl:
					'No API answered at <base URL>/sites: check the base URL, including the version segment (e.g. https://api.example.com/v1).',
			},
		);
	});

	it('names the missing scope for a token that may not read sites', async () => {
		expect(await test(sandbox.performanceUrl, sandbox.tokens.noScopes)).toEqual({
			status: 'Error',
			message:
				'The API token is valid but may not read sites: use a token with the sites:read scope.',
		});
	});

	it('notices a base URL that answers, but not with JSON', async () => {
		sandbox.setFault({ service: 'performance', path: '/sites', kind: 'nonJson' });
		expect(await test(sandbox.performanceUrl, sandbox.tokens.readOnly)).toEqual({
			status: 'Error',
			message:
				'Something answered at <base URL>/sites, but not with JSON (a web page or a login page?): check the base URL, including the version segment (e.g. https://api.example.com/v1).',
		});
	});

	it('notices JSON that is not the list of sites', async () => {
		const service = await startScriptedService(() => ({ body: { status: 'ok' } }));
		try {
			expect(await test(`${service.origin}/v1`, 'perf_any')).toEqual({
				status: 'Error',
				message:
					"Something answered at <base URL>/sites, but not with the Performance Service's list of sites: check the base URL, including the version segment (e.g. https://api.example.com/v1).",
			});
		} finally {
			await service.close();
		}
	});
});

describe('the credential type', () => {
	let credential: ICredentialType;

	beforeAll(async () => {
		credential = (await loadPackageTypes()).credentials.get(
			'performanceServiceApi',
		) as ICredentialType;
	});

	it('has the published fields, secrets as password fields', () => {
		const fields = Object.fromEntries(
			credential.properties.map((property) => [property.name, property]),
		);
		expect(Object.keys(fields)).toEqual(
			expect.arrayContaining(['baseUrl', 'apiToken', 'webhookSigningSecret']),
		);
		expect(fields.baseUrl.required).toBe(true);
		expect(fields.apiToken.typeOptions?.password).toBe(true);
		expect(fields.webhookSigningSecret.typeOptions?.password).toBe(true);
		expect(fields.webhookSigningSecret.required).toBeUndefined();
	});

	it('authenticates with a bearer header and can be reused by the HTTP Request node', () => {
		expect(credential.authenticate).toEqual({
			type: 'generic',
			properties: { headers: { Authorization: '=Bearer {{$credentials.apiToken}}' } },
		});
		expect(credential.httpRequestNode).toMatchObject({ name: 'Performance Service' });
		expect(credential.documentationUrl).toMatch(/#performance-service-api-credential$/);
		expect((credential.test?.request as IHttpRequestOptions).url).toBe('/sites');
	});
});
