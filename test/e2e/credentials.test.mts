import { beforeAll, describe, expect, it } from 'vitest';

import { loadPackageTypes } from '../support/harness/packageTypes.mts';
import type { N8nClient } from '../support/n8n/client.mts';
import { e2e, ownerClient } from './context.mts';

let client: N8nClient;

/** The message the credential's own test rules give for a 401. */
async function unauthorizedMessage(type: string): Promise<string> {
	const credential = (await loadPackageTypes()).credentials.get(type);
	const rule = credential?.test?.rules?.find(
		(candidate) => candidate.type === 'responseCode' && candidate.properties.value === 401,
	);
	if (!rule) throw new Error(`${type} has no rule for a 401`);
	return rule.properties.message;
}

beforeAll(async () => {
	client = ownerClient();
});

describe("n8n's credential test endpoint", () => {
	it('accepts the sandbox token of the Performance Service API credential', async () => {
		const { performanceUrl, tokens } = e2e().sandbox;
		const result = await client.testCredential('performanceServiceApi', {
			baseUrl: performanceUrl,
			apiToken: tokens.readOnly,
		});
		expect(result).toEqual({ status: 'OK', message: expect.any(String) });
	});

	it('accepts a base URL with a trailing slash', async () => {
		const { performanceUrl, tokens } = e2e().sandbox;
		const result = await client.testCredential('performanceServiceApi', {
			baseUrl: `${performanceUrl}/`,
			apiToken: tokens.readOnly,
		});
		expect(result.status).toBe('OK');
	});

	it("rejects a bad performance token with the credential's auth_invalid message", async () => {
		const result = await client.testCredential('performanceServiceApi', {
			baseUrl: e2e().sandbox.performanceUrl,
			apiToken: 'perf_ro_not_a_real_token',
		});
		expect(result).toEqual({
			status: 'Error',
			message: await unauthorizedMessage('performanceServiceApi'),
		});
	});

	it('accepts the sandbox key of the Security Service API credential', async () => {
		const { securityUrl, securityKey } = e2e().sandbox;
		const result = await client.testCredential('securityServiceApi', {
			baseUrl: securityUrl,
			apiKey: securityKey,
		});
		expect(result.status).toBe('OK');
	});

	it("rejects a bad security key with the credential's message", async () => {
		const result = await client.testCredential('securityServiceApi', {
			baseUrl: e2e().sandbox.securityUrl,
			apiKey: 'sec_key_revoked',
		});
		expect(result).toEqual({
			status: 'Error',
			message: await unauthorizedMessage('securityServiceApi'),
		});
	});
});
