import { describe, expect, it } from 'vitest';

import {
	configurationFingerprint,
	readMemory,
	storedMemory,
	type PollMemory,
} from '../../../../nodes/shared/polling/pollMemory.ts';

describe('poll memory', () => {
	it('reads only an intact memory of the same configuration', () => {
		const fingerprint = configurationFingerprint('configuration');
		expect(readMemory({ fingerprint, ids: ['a', 1, 'b'] }, 'configuration')).toEqual({
			fingerprint,
			ids: ['a', 'b'],
			pending: [],
			gaps: [],
			order: undefined,
			tail: undefined,
			continueAt: undefined,
			seeking: undefined,
			newest: undefined,
		});
		expect(readMemory({ source: 'configuration', ids: ['a'] }, 'configuration')).toBeUndefined();
		expect(
			readMemory({ fingerprint: configurationFingerprint('other'), ids: ['a'] }, 'configuration'),
		).toBeUndefined();
		expect(readMemory({ fingerprint }, 'configuration')).toBeUndefined();
		expect(readMemory(undefined, 'configuration')).toBeUndefined();
		expect(readMemory('garbage', 'configuration')).toBeUndefined();
	});

	it('stores only what it holds, and reads back what it stored', () => {
		const memory: PollMemory = {
			fingerprint: 'fp',
			ids: ['a'],
			pending: [],
			gaps: [
				{
					at: { url: 'https://api.example/v1/threats?page=3' },
					until: ['b'],
					skip: ['c'],
					newest: 5,
				},
			],
			order: 'newestFirst',
			seeking: { at: { qs: { cursor: 'x' } } },
		};
		const stored = storedMemory(memory);
		expect(stored).toEqual({
			fingerprint: 'fp',
			ids: ['a'],
			order: 'newestFirst',
			gaps: [
				{
					at: { url: 'https://api.example/v1/threats?page=3' },
					until: ['b'],
					skip: ['c'],
					newest: 5,
				},
			],
			seeking: { at: { qs: { cursor: 'x' } } },
		});
		expect(
			readMemory({ ...stored, fingerprint: configurationFingerprint('c') }, 'c'),
		).toMatchObject({
			gaps: memory.gaps,
			seeking: { at: { qs: { cursor: 'x' } }, since: undefined },
			order: 'newestFirst',
		});
	});
});
