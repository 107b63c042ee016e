import { beforeEach, describe, expect, it } from 'vitest';

import { scaleSecurityPlanMinute } from '../../support/harness/pacers.mts';
import { runNode } from '../../support/harness/runNode.mts';
import { requestsTo } from '../../support/harness/sandbox.mts';
import { emittedIds, ring, webhookTriggerSandbox } from './webhookTrigger.mts';

/** A service minute lasts one real second. */
const TIME_SCALE = 60;
/** The Standard plan's published limit, per minute. */
const STANDARD_PER_MINUTE = 100;
const { sandbox, publish } = webhookTriggerSandbox({ timeScale: TIME_SCALE }, { plan: 'standard' });

beforeEach(() => {
	scaleSecurityPlanMinute(sandbox, 60_000 / TIME_SCALE);
	// Like the real service: no rate-limit headers, the plan's limit enforced.
	sandbox.setOptions({
		securityRateLimitHeaders: false,
		limits: { securityRequestsPerMinute: STANDARD_PER_MINUTE },
	});
});

describe('Security Service Webhook Trigger: the plan', () => {
	it('a flood of rings beside a busy action node on the same key is slowed down, never refused', async () => {
		const { listener } = await publish();
		const added = [sandbox.addThreat().id, sandbox.addThreat().id];
		const listSites = { resource: 'site', operation: 'getAll', returnAll: false, limit: 1 };
		const items = Array.from({ length: 120 }, (_, n) => ({ n }));

		const [action, answers] = await Promise.all([
			runNode('securityService', listSites, { sandbox, credentials: { plan: 'standard' }, items }),
			Promise.all(Array.from({ length: 30 }, async () => (await ring(listener)).status)),
		]);

		expect(answers).toEqual(answers.map(() => 200));
		await listener.waitForCalls(30);
		expect(emittedIds(listener)).toEqual(added);
		expect(action.error).toBeUndefined();
		expect(action.json).toHaveLength(120);
		const requests = requestsTo(sandbox, 'security');
		expect(requests.filter((request) => request.status === 429)).toEqual([]);
		expect(requests.length).toBeGreaterThan(STANDARD_PER_MINUTE);
	});
});
