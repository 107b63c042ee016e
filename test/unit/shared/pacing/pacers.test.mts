import { afterEach, describe, expect, it } from 'vitest';

import { pacerFor, pacingKey } from '../../../../nodes/shared/pacing/pacers.ts';
import { securityPlanPerMinute } from '../../../../nodes/SecurityService/transport/index.ts';
import { forgetPacers } from '../../../support/harness/pacers.mts';

describe('one pacer per credential', () => {
	afterEach(() => forgetPacers());

	it('shares a pacer between uses of the same credential and separates other tokens and base URLs', () => {
		const credential = {
			credentialType: 'performanceServiceApi',
			baseUrl: 'https://a.example/v1',
			secret: 'tok_1',
		};
		const pace = (other: Partial<typeof credential> = {}) =>
			pacerFor({ ...credential, ...other }, undefined);
		expect(pace()).toBe(pace());
		expect(pace({ secret: 'tok_2' })).not.toBe(pace());
		expect(pace({ baseUrl: 'https://b.example/v1' })).not.toBe(pace());
		expect(pace({ credentialType: 'securityServiceApi' })).not.toBe(pace());
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
		expect(securityPlanPerMinute({ plan: 'standard' })).toBe(100);
		expect(securityPlanPerMinute({ plan: 'agency' })).toBe(500);
		expect(securityPlanPerMinute({ plan: 'enterprise' })).toBeUndefined();
		expect(securityPlanPerMinute({})).toBe(100);
		expect(securityPlanPerMinute({ plan: 'gold' })).toBe(100);
		expect(securityPlanPerMinute({ plan: 'toString' })).toBe(100);
	});
});
