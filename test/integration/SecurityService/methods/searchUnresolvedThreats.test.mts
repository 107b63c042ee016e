import { describe, expect, it } from 'vitest';

import { reasonOf } from '../../../support/harness/runNode.mts';
import { securitySandbox } from '../securityNode.mts';

const { sandbox, securityRequests, search } = securitySandbox();

describe('Unresolved threat list (threat resolve)', () => {
	it('lists only the threats not resolved', async () => {
		const { results } = await search('searchUnresolvedThreats');

		// Every fourth seeded threat (thr_4, thr_8, …) is resolved.
		expect(results).toHaveLength(21);
		expect(results.map((threat) => threat.value)).not.toContain('thr_4');
		expect(results[0]).toEqual({
			name: 'Injected script in theme footer (low, st_1, thr_1)',
			value: 'thr_1',
		});
	});

	it('searches title, severity and ID', async () => {
		const critical = await search('searchUnresolvedThreats', 'critical');
		// The seeded critical threats are all resolved.
		expect(critical.results).toEqual([]);
		sandbox.addThreat({ severity: 'critical', title: 'Backdoor in uploads' });
		expect(
			(await search('searchUnresolvedThreats', 'backdoor')).results.map((threat) => threat.value),
		).toEqual(['thr_28']);
	});

	it('continues a paginated list with the token, a few pages per call', async () => {
		sandbox.setOptions({ securityListShape: 'paginated' });
		for (let index = 0; index < 40; index++) sandbox.addThreat({ title: `Extra ${index}` });

		// 67 threats in pages of 10: the first call reads 5 pages, the second the remaining 2.
		const first = await search('searchUnresolvedThreats');
		expect(first.paginationToken).toEqual(expect.any(String));
		expect(securityRequests().map((request) => request.query.page)).toEqual([
			undefined,
			'2',
			'3',
			'4',
			'5',
		]);
		const second = await search('searchUnresolvedThreats', undefined, first.paginationToken);
		expect(second.paginationToken).toBeUndefined();
		expect(
			securityRequests()
				.slice(5)
				.map((request) => request.query.page),
		).toEqual(['6', '7']);

		const ids = [...first.results, ...second.results].map((threat) => threat.value);
		expect(ids).toHaveLength(21 + 40);
		expect(new Set(ids).size).toBe(ids.length);
	});

	it('refuses a token pointing at another host, so the key never leaves for it', async () => {
		const token = 'http://attacker.invalid/threats?page=2';
		const error: unknown = await search('searchUnresolvedThreats', undefined, token).catch(
			(caught: unknown) => caught,
		);
		// The wording is asserted in originRule.test.ts.
		expect(reasonOf(error)).toBe('foreign_url');
		expect((error as Error).message).toContain('http://attacker.invalid');
		expect(securityRequests()).toHaveLength(0);
	});
});
