import { afterAll, beforeAll, expect, it } from 'vitest';

import { runNode } from '../support/harness/runNode.mts';
import { startScriptedService, type ScriptedService } from '../support/harness/scriptedService.mts';

/** A service that repeats the key it was sent in its error: the key reaches no message or detail. */
const KEY = 'sec_key_echoed_8c1d';
let service: ScriptedService;

beforeAll(async () => {
	service = await startScriptedService(() => ({
		status: 401,
		body: { error: { code: 'unauthorized', message: `The key ${KEY} is not valid` } },
	}));
});
afterAll(() => service.close());

it('hides a key the service echoes in its error', async () => {
	const result = await runNode(
		'securityService',
		{ resource: 'threat', operation: 'getAll', returnAll: false, limit: 5 },
		{ credentials: { baseUrl: `${service.origin}/v1`, apiKey: KEY, plan: 'agency' } },
	);
	expect(result.error?.message).toContain('[unauthorized');
	expect(JSON.stringify(result.error)).not.toContain(KEY);
	expect(`${result.error?.message} ${result.error?.description}`).toContain(
		'The key *** is not valid',
	);
});
