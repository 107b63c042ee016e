import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { identifyRecords } from '../../../../nodes/shared/polling/recordIds.ts';
import { node } from './records.mts';

describe('record IDs', () => {
	it('takes string and number IDs, trimmed, and keeps the first of duplicates', () => {
		const identified = identifyRecords(
			node,
			[{ id: ' a ' }, { id: 7 }, { id: 'a', copy: true }],
			'threats',
			'Security Service',
		);
		expect(identified).toEqual([
			{ id: 'a', record: { id: ' a ' } },
			{ id: '7', record: { id: 7 } },
		]);
	});

	it.each([[{}], [{ id: '' }], [{ id: null }], [{ id: { nested: 1 } }]])(
		'refuses a record like %j',
		(record) => {
			expect(() =>
				identifyRecords(node, [{ id: 'a' }, record as IDataObject], 'scans', 'Test Service'),
			).toThrow('1 of 2 scans in the list have no "id" field');
		},
	);
});
