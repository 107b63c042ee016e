import { describe, expect, it } from 'vitest';

import { readQueryParameters } from '../../../../nodes/shared/parameters/queryParameters.ts';

describe('readQueryParameters', () => {
	it('passes names and values as given, skipping unnamed rows', () => {
		expect(
			readQueryParameters({
				parameters: [
					{ name: 'status', value: 'open' },
					{ name: ' per_page ', value: 100 },
					{ name: '', value: 'ignored' },
					{ name: 'empty', value: '' },
				],
			}),
		).toEqual({ status: 'open', per_page: '100', empty: '' });
	});

	it('keeps every value of a repeated name', () => {
		expect(
			readQueryParameters({
				parameters: [
					{ name: 'tag', value: 'a' },
					{ name: 'tag', value: 'b' },
					{ name: 'tag', value: 'c' },
				],
			}),
		).toEqual({
			tag: ['a', 'b', 'c'],
		});
	});

	it('reads nothing from an empty collection', () => {
		expect(readQueryParameters({})).toEqual({});
		expect(readQueryParameters(undefined)).toEqual({});
	});
});
