import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { epochToMilliseconds } from '../../../../nodes/shared/http/epochTime.ts';

/** 10^10: as seconds the year 2286, as milliseconds April 1970. */
const EPOCH_MILLISECONDS_ABOVE = 10_000_000_000;

describe('epochToMilliseconds', () => {
	it('reads 10^10 and below as seconds, above as milliseconds', () => {
		expect(epochToMilliseconds(1_740_830_400)).toBe(1_740_830_400_000);
		expect(epochToMilliseconds(1_740_830_400_000)).toBe(1_740_830_400_000);
		expect(epochToMilliseconds(EPOCH_MILLISECONDS_ABOVE)).toBe(EPOCH_MILLISECONDS_ABOVE * 1000);
		expect(epochToMilliseconds(EPOCH_MILLISECONDS_ABOVE + 1)).toBe(EPOCH_MILLISECONDS_ABOVE + 1);
	});

	it('gives the same moment for both units of any time from 1970-04-27 to 2286', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: EPOCH_MILLISECONDS_ABOVE / 1000 + 1, max: EPOCH_MILLISECONDS_ABOVE - 1 }),
				(seconds) => {
					expect(epochToMilliseconds(seconds * 1000)).toBe(epochToMilliseconds(seconds));
				},
			),
		);
	});

	it('reads microseconds above 10^15 and nanoseconds above 10^18 (issue 38, case 7)', () => {
		expect(epochToMilliseconds(1_740_830_400_000_000)).toBe(1_740_830_400_000);
		expect(epochToMilliseconds(1_740_830_400_000_000_000)).toBe(1_740_830_400_000);
	});
});
