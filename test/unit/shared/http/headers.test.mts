import { describe, expect, it } from 'vitest';

import { readHeader } from '../../../../nodes/shared/http/headers.ts';

describe('readHeader', () => {
	it('matches the name case-insensitively and joins repeated values', () => {
		const headers = {
			'X-RateLimit-Limit': '1000',
			'set-cookie': ['a=1', 'b=2'],
			'x-empty': undefined,
			'x-number': 5,
		};
		expect(readHeader(headers, 'x-ratelimit-limit')).toBe('1000');
		expect(readHeader(headers, 'Set-Cookie')).toBe('a=1, b=2');
		expect(readHeader(headers, 'x-empty')).toBeUndefined();
		expect(readHeader(headers, 'x-number')).toBeUndefined();
		expect(readHeader(headers, 'retry-after')).toBeUndefined();
	});
});
