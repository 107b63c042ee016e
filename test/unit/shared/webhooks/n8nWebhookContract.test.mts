import { describe, expect, it } from 'vitest';

import { keptInProcess } from '../../../../nodes/shared/webhooks/n8nWebhookContract.ts';

describe('the memory of one n8n process', () => {
	it('keeps the 1,000 entries used most recently', () => {
		const memory = new Map<string, object>();
		const remember = (key: string) => keptInProcess(memory, key, () => ({}));
		const first = remember('node0');
		for (let node = 1; node < 1_000; node++) remember(`node${node}`);
		expect(remember('node0')).toBe(first);
		remember('node1000');
		expect(memory.size).toBe(1_000);
		expect(remember('node0')).toBe(first);
		expect(memory.has('node1')).toBe(false);
	});
});
