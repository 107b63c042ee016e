import { afterAll, beforeAll, bench, describe } from 'vitest';

import { startSandbox, type Sandbox } from '../test/support/sandbox/index.mts';
import { forgetPacers, scaleSecurityPlanMinute } from '../test/support/harness/pacers.mts';
import { packageBulkNode, printTable, runBulk, seconds, type BulkResult } from './bulkRuns.mts';

/**
 * Security plan: 300 requests under a Standard-plan credential (100 a minute) against a
 * sandbox enforcing 100 a minute and, like the real service, sending no rate-limit headers.
 * Time-scaled: a minute lasts 10 s, for the sandbox and for the plan's clock alike.
 */
const PER_MINUTE = 100;
const REQUESTS = 300;
const MINUTE_MS = 10_000;
const IDEAL_MS = (REQUESTS / PER_MINUTE - 1) * MINUTE_MS;
const ONCE = { iterations: 1, time: 0, warmupIterations: 0, warmupTime: 0 };

let sandbox: Sandbox;
const results = new Map<string, BulkResult>();
const listOneSite = (name: string) =>
	packageBulkNode(
		'securityService',
		{ resource: 'site', operation: 'getAll', returnAll: false, limit: 1 },
		{ name, continueOnFail: true },
	);

async function measure(name: string, plan: string): Promise<void> {
	sandbox.reset();
	sandbox.setOptions({
		securityRateLimitHeaders: false,
		limits: { securityRequestsPerMinute: PER_MINUTE },
	});
	forgetPacers();
	scaleSecurityPlanMinute(sandbox, MINUTE_MS);
	const credentials = {
		securityServiceApi: { baseUrl: sandbox.securityUrl, apiKey: sandbox.securityKey, plan },
	};
	results.set(name, await runBulk(sandbox, listOneSite(name), REQUESTS, credentials));
}

beforeAll(async () => {
	sandbox = await startSandbox({ quiet: true, timeScale: 60_000 / MINUTE_MS });
});

afterAll(async () => {
	await sandbox.close();
	printTable(
		`Security plan: ${REQUESTS} requests, service enforcing ${PER_MINUTE} a minute (minute = ${MINUTE_MS / 1000} s), no rate-limit headers; ideal ${seconds(IDEAL_MS)}`,
		[
			'credential plan',
			'wall time',
			'of ideal',
			'failed items',
			'answered 429 (goal 0 on Standard)',
			'met',
		],
		[...results].map(([name, result]) => [
			name,
			seconds(result.ms),
			`${(result.ms / IDEAL_MS).toFixed(3)}x`,
			result.failed,
			`${result.answered429} of ${result.requests}`,
			name.startsWith('Standard')
				? result.answered429 === 0 && result.failed === 0
					? 'yes'
					: 'NO'
				: '',
		]),
	);
});

describe(`${REQUESTS} security requests under a plan`, () => {
	bench(
		'Standard plan (100 a minute)',
		async () => await measure('Standard (the credential matches the service)', 'standard'),
		ONCE,
	);
	bench(
		'Enterprise plan (unlimited) against the same service',
		async () =>
			await measure(
				'Enterprise (wrong plan: nothing to keep to, only the 429 backstop)',
				'enterprise',
			),
		ONCE,
	);
});
