import { describe, expect, it } from 'vitest';

import {
	isRecord,
	nonBlankString,
	recordContains,
	recordTime,
	textOf,
	unwrapRecord,
} from '../../../../nodes/shared/lists/recordFields.ts';

describe('isRecord, nonBlankString, textOf', () => {
	it('tells JSON objects from arrays, null and scalars', () => {
		expect([{}, { a: 1 }].map(isRecord)).toEqual([true, true]);
		expect([[], null, undefined, 'x', 1, true].map(isRecord)).toEqual([
			false,
			false,
			false,
			false,
			false,
			false,
		]);
	});

	it('nonBlankString: trimmed strings only', () => {
		expect(nonBlankString('  a b ')).toBe('a b');
		expect([' ', '', 5, null, undefined, {}].map(nonBlankString)).toEqual(Array(6).fill(undefined));
	});

	it('textOf: trimmed strings and finite numbers', () => {
		expect(textOf(' st_1 ')).toBe('st_1');
		expect(textOf(12)).toBe('12');
		expect(textOf(0)).toBe('0');
		expect([NaN, Infinity, ' ', null, true, {}].map(textOf)).toEqual(Array(6).fill(undefined));
	});

	it('recordContains: any of the fields, case-insensitive, numbers too; an empty filter matches', () => {
		const site = { name: 'Acme Shop', hostname: 'shop.example.com', port: 8443 };
		expect(recordContains(site, ['name'], ' SHOP ')).toBe(true);
		expect(recordContains(site, ['hostname', 'port'], '844')).toBe(true);
		expect(recordContains(site, ['name'], 'example')).toBe(false);
		expect(recordContains(site, ['name'], '   ')).toBe(true);
		expect(recordContains(site, ['name'], undefined)).toBe(true);
	});
});

describe('unwrapRecord: one rule for single-record answers of both services', () => {
	const site = { id: 'site_1', name: 'Acme' };

	it('unwraps a record wrapped alone under its singular name or `data`', () => {
		expect(unwrapRecord({ site }, 'site')).toEqual(site);
		expect(unwrapRecord({ data: site }, 'site')).toEqual(site);
	});

	it('keeps the body when the wrapper has other keys, another name, or no object inside', () => {
		expect(unwrapRecord({ site, meta: {} }, 'site')).toEqual({ site, meta: {} });
		expect(unwrapRecord({ threat: site }, 'site')).toEqual({ threat: site });
		expect(unwrapRecord({ site: 'site_1' }, 'site')).toEqual({ site: 'site_1' });
		expect(unwrapRecord(site, 'site')).toEqual(site);
	});

	it('an empty answer becomes `whenEmpty` when given, else `{}`; a bare value becomes `{ value }`', () => {
		const sent = { id: 'thr_1', resolved: true };
		expect(unwrapRecord({}, 'threat', sent)).toBe(sent);
		expect(unwrapRecord('ok', 'threat', sent)).toBe(sent);
		expect(unwrapRecord([], 'threat', sent)).toBe(sent);
		expect(unwrapRecord({}, 'system')).toEqual({});
		expect(unwrapRecord('ok', 'system')).toEqual({ value: 'ok' });
		expect(unwrapRecord([1, 2], 'system')).toEqual({ value: [1, 2] });
	});
});

describe('recordTime', () => {
	it('reads the first date field that holds a date, text or milliseconds', () => {
		expect(recordTime({ createdAt: '2025-03-01T12:00:00Z' })).toBe(
			Date.parse('2025-03-01T12:00:00Z'),
		);
		expect(recordTime({ createdAt: 'soon', detected_at: '2025-03-01T12:00:00Z' })).toBe(
			Date.parse('2025-03-01T12:00:00Z'),
		);
		expect(recordTime({ timestamp: 1_740_830_400_000 })).toBe(1_740_830_400_000);
		expect(recordTime({ updatedAt: null, id: 'x' })).toBeUndefined();
	});

	it('reads only the fields it is given', () => {
		expect(recordTime({ detectedAt: '2025-03-01T12:00:00Z' }, ['createdAt'])).toBeUndefined();
	});
});
