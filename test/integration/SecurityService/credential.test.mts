import { describe, expect, it } from 'vitest';

import { testCredential } from '../../support/harness/credentialTest.mts';
import { startScriptedService } from '../../support/harness/scriptedService.mts';
import { expectFailuresToldApart } from '../credentialFailures.mts';
import { securitySandbox } from './securityNode.mts';

const { sandbox, securityRequests } = securitySandbox();

describe('Security Service API credential test', () => {
	it('passes with the right key and base URL, with or without a trailing slash', async () => {
		expect(
			await testCredential('securityServiceApi', {
				baseUrl: sandbox.securityUrl,
				apiKey: sandbox.securityKey,
			}),
		).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		expect(
			(
				await testCredential('securityServiceApi', {
					baseUrl: `${sandbox.securityUrl}/`,
					apiKey: sandbox.securityKey,
				})
			).status,
		).toBe('OK');
		expect(
			securityRequests().map((request) => [
				request.method,
				request.path,
				request.headers.authorization,
			]),
		).toEqual([
			['GET', '/sites', `Bearer ${sandbox.securityKey}`],
			['GET', '/sites', `Bearer ${sandbox.securityKey}`],
		]);
	});

	it('tells a bad key, a wrong URL and an unreachable host apart', async () => {
		const badKey = await testCredential('securityServiceApi', {
			baseUrl: sandbox.securityUrl,
			apiKey: 'sec_wrong',
		});
		const wrongUrl = await testCredential('securityServiceApi', {
			baseUrl: `${sandbox.origin}/security`,
			apiKey: sandbox.securityKey,
		});
		const unreachable = await testCredential('securityServiceApi', {
			baseUrl: 'http://127.0.0.1:1/v1',
			apiKey: sandbox.securityKey,
		});

		expectFailuresToldApart(
			{ rejected: badKey, wrongBaseUrl: wrongUrl, unreachable },
			{
				rejected:
					'The service rejected the API key: check the key in the dashboard settings (it may have been rotated).',
				wrongBaseUrl:
					'No API answered at <base URL>/sites: check the base URL (with the version segment, without /api).',
			},
		);
	});
});

describe('Security Service API credential test against a web page', () => {
	it('fails when the base URL answers with a page, text or nothing instead of the JSON', async () => {
		const pages = [
			'<!DOCTYPE html><html><head><title>Dashboard</title></head></html>',
			'\n  <html><body>Sign in</body></html>',
			'OK',
			'',
		];
		for (const body of pages) {
			const service = await startScriptedService(() => ({
				body,
				headers: { 'content-type': 'text/html' },
			}));
			try {
				const result = await testCredential('securityServiceApi', {
					baseUrl: `${service.origin}/v1`,
					apiKey: 'sec_any',
				});
				expect(result).toEqual({
					status: 'Error',
					message:
						"Something answered at <base URL>/sites, but not with the Security Service's JSON (a dashboard or login page?): check the base URL (with the version segment, without /api).",
				});
			} finally {
				await service.close();
			}
		}
	});

	it('still passes on JSON lists of any shape', async () => {
		for (const body of [[{ id: 'st_1' }], { data: [] }, { sites: [] }]) {
			const service = await startScriptedService(() => ({ body }));
			try {
				const result = await testCredential('securityServiceApi', {
					baseUrl: `${service.origin}/v1`,
					apiKey: 'sec_any',
				});
				expect(result.status).toBe('OK');
			} finally {
				await service.close();
			}
		}
	});
});
