import { afterEach, describe, expect, it } from 'vitest';

import {
	forgetPacers,
	pacerFor,
	pacingKey,
	planClock,
} from '../../../../nodes/shared/pacing/pacers.ts';
import { securityPlanRate } from '../../../../nodes/SecurityService/transport/index.ts';

describe('one pacer per credential', () => {
	afterEach(() => forgetPacers());

	it('shares a pacer between uses of the same credential and separates other tokens and base URLs', () => {
		const credential = {
			credentialType: 'performanceServiceApi',
			baseUrl: 'https://a.example/v1',
			secret: 'tok_1',
		};
		expect(pacerFor(credential)).toBe(pacerFor({ ...credential }));
		expect(pacerFor({ ...credential, secret: 'tok_2' })).not.toBe(pacerFor(credential));
		expect(pacerFor({ ...credential, baseUrl: 'https://b.example/v1' })).not.toBe(
			pacerFor(credential),
		);
		expect(pacerFor({ ...credential, credentialType: 'securityServiceApi' })).not.toBe(
			pacerFor(credential),
		);
	});

	it('keys by a hash of the secret, never the secret itself', () => {
		const secret = 'sec_key_9e4b2a7c1d8f5e36';
		const key = pacingKey({
			credentialType: 'securityServiceApi',
			baseUrl: 'https://s.example/v1',
			secret,
		});
		expect(key).not.toContain(secret);
		expect(key).toMatch(/^securityServiceApi https:\/\/s\.example\/v1 [0-9a-f]{64}$/);
	});

	it('knows the security plans: Standard 100, Agency 500 a minute, Enterprise unlimited; unknown is Standard', () => {
		expect(securityPlanRate({ plan: 'standard' })).toEqual({ requests: 100, windowMs: 60_000 });
		expect(securityPlanRate({ plan: 'agency' })).toEqual({ requests: 500, windowMs: 60_000 });
		expect(securityPlanRate({ plan: 'enterprise' })).toBeUndefined();
		expect(securityPlanRate({})).toEqual({ requests: 100, windowMs: 60_000 });
		expect(securityPlanRate({ plan: 'gold' })).toEqual({ requests: 100, windowMs: 60_000 });
		expect(securityPlanRate({ plan: 'toString' })).toEqual({ requests: 100, windowMs: 60_000 });
	});

	it('follows the plan clock of a time-scaled simulation', () => {
		planClock.minuteMs = 2_000;
		try {
			expect(securityPlanRate({ plan: 'agency' })).toEqual({ requests: 500, windowMs: 2_000 });
		} finally {
			planClock.minuteMs = 60_000;
		}
	});
});
