import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
	computeSignature,
	parseTimestamp,
	verifyDelivery,
	type SignedDelivery,
	type VerifyOptions,
} from '../../../../nodes/PerformanceService/trigger/webhookSignature.ts';
import { sign } from '../../../support/harness/deliveries.mts';

const SECRET = 'whsec_unit_current';
const PREVIOUS = 'whsec_unit_previous';
const NOW_MS = Date.UTC(2026, 10, 22, 12, 0, 0);
const NOW_S = String(NOW_MS / 1000);
/** Above this a timestamp is read as milliseconds (README: 10^10). */
const EPOCH_MILLISECONDS_ABOVE = 10_000_000_000;
const BODY = '{"id":"evt_1","type":"audit.completed","data":{}}';

function options(overrides: Partial<VerifyOptions> = {}): VerifyOptions {
	return { secrets: [SECRET], toleranceSeconds: 300, nowMs: NOW_MS, ...overrides };
}

function signed(overrides: Partial<SignedDelivery> = {}, secret = SECRET): SignedDelivery {
	const timestamp = overrides.timestamp ?? NOW_S;
	const rawBody = overrides.rawBody ?? BODY;
	return { timestamp, rawBody, signature: sign(secret, timestamp, rawBody), ...overrides };
}

function reasonOf(delivery: SignedDelivery, verifyOptions = options()): string {
	const result = verifyDelivery(delivery, verifyOptions);
	return result.ok ? 'ok' : result.reason;
}

describe('computeSignature', () => {
	it('is the lower-case hex HMAC-SHA256 of "<timestamp>.<raw body>"', () => {
		expect(computeSignature(SECRET, NOW_S, BODY)).toBe(sign(SECRET, NOW_S, BODY));
		expect(computeSignature(SECRET, NOW_S, BODY)).toMatch(/^[0-9a-f]{64}$/);
	});

	it('signs bytes as given: a Buffer and its UTF-8 string agree, re-serialised JSON does not', () => {
		const body = '{ "reason" : "Ladezeit über Ziel 🚨" }\n';
		expect(computeSignature(SECRET, NOW_S, Buffer.from(body, 'utf8'))).toBe(
			computeSignature(SECRET, NOW_S, body),
		);
		expect(computeSignature(SECRET, NOW_S, JSON.stringify(JSON.parse(body)))).not.toBe(
			computeSignature(SECRET, NOW_S, body),
		);
	});
});

describe('parseTimestamp', () => {
	it('reads up to 10^10 as seconds and above as milliseconds', () => {
		expect(parseTimestamp('1700000000')).toBe(1_700_000_000_000);
		expect(parseTimestamp('1700000000123')).toBe(1_700_000_000_123);
		expect(parseTimestamp(String(EPOCH_MILLISECONDS_ABOVE))).toBe(EPOCH_MILLISECONDS_ABOVE * 1000);
		expect(parseTimestamp(String(EPOCH_MILLISECONDS_ABOVE + 1))).toBe(EPOCH_MILLISECONDS_ABOVE + 1);
		expect(parseTimestamp('0')).toBe(0);
	});

	it('accepts only 1 to 15 digits', () => {
		for (const value of [
			'',
			' 1700000000',
			'1700000000 ',
			'+1700000000',
			'-1',
			'1.5',
			'1e9',
			'0x10',
			'١٧٠٠',
			'1234567890123456',
		]) {
			expect(parseTimestamp(value), value).toBeUndefined();
		}
		expect(parseTimestamp('123456789012345')).toBe(123456789012345);
	});
});

describe('the timestamp window', () => {
	const at = (timestampMs: number, toleranceSeconds = 300): string =>
		reasonOf(signed({ timestamp: String(timestampMs) }), options({ toleranceSeconds }));

	it('allows exactly the tolerance either way and nothing beyond', () => {
		expect(at(NOW_MS - 300_000)).toBe('ok');
		expect(at(NOW_MS + 300_000)).toBe('ok');
		expect(at(NOW_MS - 300_001)).toBe('timestamp_too_old');
		expect(at(NOW_MS + 300_001)).toBe('timestamp_in_future');
		expect(at(NOW_MS - 5_001, 5)).toBe('timestamp_too_old');
	});

	it('is off with a tolerance of 0', () => {
		expect(at(0, 0)).toBe('ok');
		expect(at(NOW_MS * 2, 0)).toBe('ok');
	});
});

describe('verifyDelivery', () => {
	it('accepts a correctly signed delivery, its timestamp in seconds or in milliseconds', () => {
		expect(verifyDelivery(signed(), options())).toEqual({ ok: true, secretIndex: 0 });
		expect(verifyDelivery(signed({ timestamp: String(NOW_MS) }), options())).toEqual({
			ok: true,
			secretIndex: 0,
		});
	});

	it('names what is wrong', () => {
		const good = signed();
		expect(reasonOf(good, options({ secrets: [] }))).toBe('no_signing_secret');
		expect(reasonOf(good, options({ secrets: ['', '  '] }))).toBe('no_signing_secret');
		expect(reasonOf({ ...good, timestamp: undefined })).toBe('missing_timestamp');
		expect(reasonOf({ ...good, timestamp: '' })).toBe('missing_timestamp');
		expect(reasonOf({ ...good, signature: undefined })).toBe('missing_signature');
		expect(reasonOf({ ...good, timestamp: undefined, signature: undefined })).toBe(
			'missing_timestamp',
		);
		expect(reasonOf({ ...good, signature: good.signature?.toUpperCase() })).toBe(
			'malformed_signature',
		);
		expect(reasonOf({ ...good, signature: `sha256=${good.signature}` })).toBe(
			'malformed_signature',
		);
		expect(reasonOf({ ...good, signature: good.signature?.slice(1) })).toBe('malformed_signature');
		expect(reasonOf({ ...good, timestamp: `${NOW_S}.5` })).toBe('malformed_timestamp');
		expect(reasonOf({ ...good, rawBody: `${BODY} ` })).toBe('signature_mismatch');
		expect(reasonOf(signed({}, 'another secret'))).toBe('signature_mismatch');
		expect(reasonOf(signed({ timestamp: String(NOW_MS / 1000 - 301) }))).toBe('timestamp_too_old');
		expect(reasonOf(signed({ timestamp: String(NOW_MS + 301_000) }))).toBe('timestamp_in_future');
	});

	it('checks the signature before the window, so a forger learns nothing about the window', () => {
		const stale = signed({ timestamp: '1000' });
		expect(reasonOf({ ...stale, signature: '0'.repeat(64) })).toBe('signature_mismatch');
		expect(reasonOf(stale)).toBe('timestamp_too_old');
	});

	it('rejects a timestamp changed after signing, even inside the window', () => {
		const good = signed();
		expect(reasonOf({ ...good, timestamp: String(NOW_MS / 1000 - 1) })).toBe('signature_mismatch');
	});

	it('takes no blank secret as a key, and reports the first secret that matched', () => {
		expect(reasonOf(signed({}, '   '), options({ secrets: [SECRET, '   '] }))).toBe(
			'signature_mismatch',
		);
		expect(verifyDelivery(signed(), options({ secrets: [SECRET, SECRET] }))).toMatchObject({
			ok: true,
			secretIndex: 0,
		});
		expect(verifyDelivery(signed(), options({ secrets: ['', SECRET] }))).toMatchObject({
			ok: true,
			secretIndex: 1,
		});
	});

	it('takes a signature of exactly 64 hex digits, nothing appended', () => {
		const delivery = signed();
		expect(reasonOf({ ...delivery, signature: `${delivery.signature}0` })).toBe(
			'malformed_signature',
		);
	});

	it('accepts the previous secret during a rotation and says which secret matched', () => {
		const rotation = options({ secrets: [SECRET, PREVIOUS] });
		expect(verifyDelivery(signed({}, SECRET), rotation)).toMatchObject({
			ok: true,
			secretIndex: 0,
		});
		expect(verifyDelivery(signed({}, PREVIOUS), rotation)).toMatchObject({
			ok: true,
			secretIndex: 1,
		});
		expect(reasonOf(signed({}, PREVIOUS))).toBe('signature_mismatch');
		expect(
			verifyDelivery(signed({}, PREVIOUS), options({ secrets: ['', PREVIOUS] })),
		).toMatchObject({
			ok: true,
			secretIndex: 1,
		});
	});
});

describe('verifyDelivery, property-based', () => {
	const secretArb = fc
		.string({ unit: 'binary', minLength: 1, maxLength: 64 })
		.filter((s) => s.trim() !== '');
	const bodyArb = fc.oneof(
		fc.uint8Array({ maxLength: 512 }),
		fc.string({ unit: 'binary', maxLength: 256 }),
		fc.jsonValue().map((value) => JSON.stringify(value, null, 2)),
	);
	const timestampArb = fc
		.integer({ min: -300, max: 300 })
		.chain((offset) =>
			fc.constantFrom(String(NOW_MS / 1000 + offset), String(NOW_MS + offset * 1000)),
		);
	const hexDigit = fc.constantFrom(...'0123456789abcdef');

	it('accepts exactly the correctly signed request', () => {
		const candidateArb = fc.record({
			secret: secretArb,
			otherSecret: secretArb,
			body: bodyArb,
			timestamp: timestampArb,
			tamper: fc.constantFrom('none', 'secret', 'body', 'signature', 'timestamp', 'case'),
			position: fc.nat(),
			digit: hexDigit,
		});
		fc.assert(
			fc.property(candidateArb, (c) => {
				const correct = sign(c.secret, c.timestamp, c.body);
				let signature = correct;
				let body: Uint8Array | string = c.body;
				let timestamp = c.timestamp;
				if (c.tamper === 'secret') signature = sign(c.otherSecret, c.timestamp, c.body);
				if (c.tamper === 'body') {
					body = Buffer.concat([Buffer.from(c.body), Buffer.from([c.position % 256])]);
				}
				if (c.tamper === 'signature') {
					const at = c.position % 64;
					signature = correct.slice(0, at) + c.digit + correct.slice(at + 1);
				}
				if (c.tamper === 'timestamp')
					timestamp = String(Number(c.timestamp) + 1 + (c.position % 5));
				if (c.tamper === 'case') signature = correct.toUpperCase();

				const result = verifyDelivery(
					{ timestamp, signature, rawBody: body },
					options({ secrets: [c.secret] }),
				);
				const reallySigned = signature === sign(c.secret, timestamp, body);
				expect(result.ok).toBe(reallySigned);
			}),
			{ numRuns: 2000 },
		);
	});
});
