import { bench, describe } from 'vitest';

import { unwrapList } from '../nodes/shared/lists/unwrapList.ts';
import { readRateLimit } from '../nodes/shared/http/rateLimitHeaders.ts';

const records = Array.from({ length: 1000 }, (_, index) => ({
	id: `thr_${index}`,
	severity: 'high',
	status: 'open',
}));
const paginated = {
	data: records,
	page: 1,
	totalPages: 4,
	next: 'http://127.0.0.1/security/v1/threats?page=2',
};

describe('list unwrapping (1000 records)', () => {
	bench('bare array', () => {
		unwrapList(records, 'threats');
	});
	bench('wrapped under the plural name', () => {
		unwrapList({ threats: records }, 'threats');
	});
	bench('paginated body with Link header', () => {
		unwrapList(paginated, 'threats', {
			link: '<http://127.0.0.1/security/v1/threats?page=2>; rel="next"',
		});
	});
});

describe('rate-limit headers', () => {
	const now = Date.now();
	bench('epoch seconds', () => {
		readRateLimit(
			{
				'x-ratelimit-limit': '1000',
				'x-ratelimit-remaining': '10',
				'x-ratelimit-reset': String(Math.ceil(now / 1000) + 30),
			},
			now,
		);
	});
	bench('Retry-After HTTP date', () => {
		readRateLimit({ 'retry-after': new Date(now + 30_000).toUTCString() }, now);
	});
});
