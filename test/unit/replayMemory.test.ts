import { beforeEach, describe, expect, it } from 'vitest';

import {
	forgetAllDeliveries,
	MAX_ENTRIES,
	rememberDelivery,
	rememberedCount,
	type DeliveryKey,
} from '../../nodes/PerformanceServiceTrigger/replayMemory.ts';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

function key(overrides: Partial<DeliveryKey> = {}): DeliveryKey {
	return { workflowId: 'wf', nodeId: 'node', timestamp: String(NOW / 1000), signature: 'a'.repeat(64), ...overrides };
}

describe('replay memory', () => {
	beforeEach(() => forgetAllDeliveries());

	it('accepts a delivery once while it is inside the tolerance window', () => {
		expect(rememberDelivery(key(), NOW, 300, NOW)).toBe(true);
		expect(rememberDelivery(key(), NOW, 300, NOW + 1000)).toBe(false);
		expect(rememberDelivery(key(), NOW, 300, NOW + 300_000)).toBe(true);
	});

	it('tells deliveries apart by timestamp, signature, workflow and node', () => {
		expect(rememberDelivery(key(), NOW, 300, NOW)).toBe(true);
		expect(rememberDelivery(key({ timestamp: String(NOW / 1000 + 1) }), NOW, 300, NOW)).toBe(true);
		expect(rememberDelivery(key({ signature: 'b'.repeat(64) }), NOW, 300, NOW)).toBe(true);
		expect(rememberDelivery(key({ workflowId: 'other' }), NOW, 300, NOW)).toBe(true);
		expect(rememberDelivery(key({ nodeId: 'other' }), NOW, 300, NOW)).toBe(true);
		expect(rememberedCount()).toBe(5);
	});

	it('forgets expired deliveries when it records new ones', () => {
		rememberDelivery(key(), NOW, 300, NOW);
		rememberDelivery(key({ signature: 'b'.repeat(64) }), NOW + 600_000, 300, NOW + 600_000);
		expect(rememberedCount()).toBe(1);
	});

	it('keeps deliveries without expiry when the age check is off, up to its bound', () => {
		expect(rememberDelivery(key(), NOW, 0, NOW)).toBe(true);
		expect(rememberDelivery(key(), NOW, 0, NOW + 365 * 86_400_000)).toBe(false);
	});

	it(`holds at most ${MAX_ENTRIES} deliveries and forgets the oldest first`, () => {
		for (let index = 0; index <= MAX_ENTRIES; index++) {
			rememberDelivery(key({ signature: String(index) }), NOW, 0, NOW);
		}
		expect(rememberedCount()).toBe(MAX_ENTRIES);
		expect(rememberDelivery(key({ signature: String(MAX_ENTRIES) }), NOW, 0, NOW)).toBe(false);
		expect(rememberDelivery(key({ signature: '0' }), NOW, 0, NOW)).toBe(true);
	});
});
