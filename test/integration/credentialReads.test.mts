import { afterEach, describe, expect, it } from 'vitest';

import { TestCredentialsHelper } from '../support/harness/credentialsHelper.mts';
import { byId, runNode } from '../support/harness/runNode.mts';
import { requestsTo, withSandbox } from '../support/harness/sandbox.mts';

/**
 * In n8n every `getCredentials` loads the credential from the database and decrypts it (about
 * 2 ms each in n8n 2.41, see docs/benchmarks.md): the nodes read it once per execution and
 * hand it to n8n's authentication helper, instead of once or twice per request.
 */
const sandbox = withSandbox();
const original = TestCredentialsHelper.prototype.getDecrypted;
afterEach(() => {
	TestCredentialsHelper.prototype.getDecrypted = original;
});

function countReads(): { types: string[] } {
	const reads = { types: [] as string[] };
	TestCredentialsHelper.prototype.getDecrypted = async function (
		additionalData,
		details,
		type,
		...rest
	) {
		reads.types.push(type);
		return await original.call(this, additionalData, details, type, ...rest);
	};
	return reads;
}

const items = (count: number) => Array.from({ length: count }, (_, n) => ({ n }));

describe('the credential is read once per execution', () => {
	it('Performance Service: 20 items, 20 requests, one read', async () => {
		const reads = countReads();
		const result = await runNode(
			'performanceService',
			{ resource: 'site', operation: 'get', siteId: byId('site_1') },
			{ sandbox, items: items(20) },
		);

		expect(result.json).toHaveLength(20);
		expect(requestsTo(sandbox, 'performance')).toHaveLength(20);
		expect(
			requestsTo(sandbox, 'performance').every(
				(request) => request.headers.authorization === `Bearer ${sandbox.tokens.readWrite}`,
			),
		).toBe(true);
		expect(reads.types).toEqual(['performanceServiceApi']);
	});

	it('Security Service: Return All over several pages for 3 items, one read', async () => {
		sandbox.setOptions({ securityListShape: 'paginated' });
		const reads = countReads();
		const result = await runNode(
			'securityService',
			{ resource: 'threat', operation: 'getAll', returnAll: true },
			{ sandbox, items: items(3) },
		);

		expect(result.error).toBeUndefined();
		expect(requestsTo(sandbox, 'security').length).toBeGreaterThan(3);
		expect(
			requestsTo(sandbox, 'security').every(
				(request) => request.headers.authorization === `Bearer ${sandbox.securityKey}`,
			),
		).toBe(true);
		expect(reads.types).toEqual(['securityServiceApi']);
	});
});
