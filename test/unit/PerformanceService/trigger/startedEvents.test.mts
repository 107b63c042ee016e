import { beforeEach, describe, expect, it } from 'vitest';

const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

import {
	eventDigest,
	forgetProcessMemory,
	MAX_STARTED_EVENTS,
	nodeEvents,
	readStoredEvents,
} from '../../../../nodes/PerformanceService/trigger/startedEvents.ts';

const NOW = 1_763_900_000;
/** Digests are 12 characters, as `eventDigest` makes them. */
const [E1, E2, E3, EXPIRED, O0] = ['e1', 'e2', 'e3', 'expired', 'o0'].map((name) =>
	name.padEnd(12, '-'),
);
const [A, B, C, D] = ['A', 'B', 'C', 'D'].map((digit) => digit.repeat(12));
/** What the formats before this one stored: 22 characters, of which a digest is the first 12. */
const legacy = (digest: string): string => digest.padEnd(22, 'x');

describe('event digest', () => {
	it('is the id when there is one, whatever else the body holds', () => {
		const first = eventDigest({ id: 'evt_1', type: 'a' }, Buffer.from('{"id":"evt_1","type":"a"}'));
		const retry = eventDigest(
			{ id: 'evt_1', type: 'a' },
			Buffer.from('{ "id": "evt_1", "type": "a" }'),
		);
		expect(first).toBe(retry);
		expect(first).toMatch(/^[A-Za-z0-9_-]{12}$/);
		expect(eventDigest({ id: 'evt_2' }, Buffer.from('{}'))).not.toBe(first);
		expect(eventDigest({ id: 7 }, Buffer.from('{}'))).toBe(
			eventDigest({ id: '7' }, Buffer.from('[]')),
		);
	});

	it('is the exact body when the id is missing, empty or not a string or number', () => {
		for (const body of [{}, { id: '' }, { id: null }, { id: { nested: 1 } }]) {
			const raw = Buffer.from(JSON.stringify(body));
			expect(eventDigest(body, raw)).toBe(eventDigest(body, Buffer.from(raw)));
			expect(eventDigest(body, raw)).not.toBe(
				eventDigest(body, Buffer.concat([raw, Buffer.from(' ')])),
			);
		}
		// A body whose text is an id does not collide with that id.
		expect(eventDigest({}, Buffer.from('evt_1'))).not.toBe(
			eventDigest({ id: 'evt_1' }, Buffer.from('{}')),
		);
	});
});

describe("one process's memory of a trigger node", () => {
	beforeEach(() => forgetProcessMemory());

	it('claims a new event, and calls it started only once settled as started', async () => {
		const events = nodeEvents('wf', 'node');
		const claim = await events.claim('e1', NOW - 60);
		expect(claim).toBeDefined();
		events.settle('e1', claim!, true, NOW);
		expect(await events.claim('e1', NOW - 60)).toBeUndefined();
		// Outside the window it is new again.
		expect(await events.claim('e1', NOW)).toBeDefined();
	});

	it('releases a claim that was not answered with a 2xx', async () => {
		const events = nodeEvents('wf', 'node');
		const claim = await events.claim('e1', NOW - 60);
		events.settle('e1', claim!, false, NOW);
		expect(await events.claim('e1', NOW - 60)).toBeDefined();
	});

	it('makes a concurrent delivery of the same event wait for the first one', async () => {
		const events = nodeEvents('wf', 'node');
		const first = await events.claim('e1', NOW - 60);
		const second = events.claim('e1', NOW - 60);
		const third = events.claim('e1', NOW - 60);
		events.settle('e1', first!, true, NOW);
		expect(await second).toBeUndefined();
		expect(await third).toBeUndefined();

		// When the first fails, the next one in line takes over, and the one after it waits again.
		const other = await events.claim('e2', NOW - 60);
		const next = events.claim('e2', NOW - 60);
		const last = events.claim('e2', NOW - 60);
		events.settle('e2', other!, false, NOW);
		const taken = await next;
		expect(taken).toBeDefined();
		events.settle('e2', taken!, true, NOW);
		expect(await last).toBeUndefined();
	});

	it('keeps nodes apart and learns what another process stored', async () => {
		const other = nodeEvents('wf', 'a-elsewhere');
		await start(other, E1, NOW);
		nodeEvents('wf', 'a').absorb(other.stored(NOW - 60));
		expect(await nodeEvents('wf', 'a').claim(E1, NOW - 60)).toBeUndefined();
		expect(await nodeEvents('wf', 'b').claim(E1, NOW - 60)).toBeDefined();
		expect(await nodeEvents('other', 'a').claim(E1, NOW - 60)).toBeDefined();
	});

	it('takes in only what an origin added since it was last read, and keeps other origins as stored', async () => {
		const writer = nodeEvents('wf', 'writer');
		const reader = nodeEvents('wf', 'reader');
		await start(writer, E1, NOW);
		const first = writer.stored(NOW - 60);
		reader.absorb(first);
		await start(writer, E2, NOW + 1);
		const second = writer.stored(NOW - 60);
		// The reader's own save carries the writer's string as it was stored, character for character.
		reader.absorb(second);
		expect(reader.stored(NOW - 60)[writer.origin]).toBe(second[writer.origin]);
		expect(await reader.claim(E1, NOW - 60)).toBeUndefined();
		expect(await reader.claim(E2, NOW - 60)).toBeUndefined();
		// An older string of the same origin adds nothing and does not replace the newer one.
		reader.absorb(first);
		expect(reader.stored(NOW - 60)[writer.origin]).toBe(second[writer.origin]);
		expect(reader.storedLacksKnown(second)).toBe(false);
		expect(reader.storedLacksKnown(first)).toBe(true);
	});

	it('reads the formats stored before this one and stores them in this one', async () => {
		const events = nodeEvents('wf', 'node');
		// digest → seconds, before origins
		events.absorb({ [legacy(E1)]: NOW, [legacy(EXPIRED)]: NOW - 100_000, junk: 'x' });
		// "<appended>.<records>", 22 digest characters and 6 of seconds per record
		const digits = (seconds: number, count: number): string =>
			[...Array(count).keys()]
				.reverse()
				.map((power) => DIGITS[Math.floor(seconds / 64 ** power) % 64])
				.join('');
		const earlier = {
			old: `7.${legacy(E2)}${digits(NOW + 1, 6)}`,
			// "<appended>.<base>.<records>", the digest and 3 digits of seconds after the base
			timed: `4.${NOW}.${E3}${digits(2, 3)}`,
		};
		events.absorb(earlier);
		expect(await events.claim(E1, NOW - 60)).toBeUndefined();
		expect(await events.claim(E2, NOW - 60)).toBeUndefined();
		expect(await events.claim(E3, NOW + 1)).toBeUndefined();
		const stored = events.stored(NOW - 60);
		expect(Object.keys(stored)).toEqual([events.origin]);
		expect(stored[events.origin]).toBe(`3.${NOW}.${NOW + 2}.${E1}${E2}${E3}`);
		// Read again (a process of a version before still writes them), they add nothing.
		events.absorb({ [legacy(E1)]: NOW, ...earlier });
		expect(events.stored(NOW - 60)).toEqual(stored);
	});

	it(`stores at most ${MAX_STARTED_EVENTS} events inside the window, the oldest of any origin forgotten first`, async () => {
		const older = nodeEvents('wf', 'older');
		const events = nodeEvents('wf', 'node');
		await start(older, EXPIRED, NOW - 100_000);
		await start(older, O0, NOW - 2000);
		events.absorb(older.stored(NOW - 200_000));
		for (let index = 0; index < MAX_STARTED_EVENTS; index++)
			await start(events, `e${index}`.padEnd(12, '-'), NOW - 1000 + Math.floor(index / 10));
		const stored = readStoredEvents(events.stored(NOW - 10_000));
		expect(stored.size).toBe(MAX_STARTED_EVENTS);
		expect(stored.has(EXPIRED)).toBe(false);
		expect(stored.has(O0)).toBe(false);
		expect(stored.has('e0'.padEnd(12, '-'))).toBe(true);
		expect(await events.claim(O0, NOW - 10_000)).toBeDefined();
		expect(await events.claim(E1, NOW - 10_000)).toBeUndefined();
	});

	it("stores 12 characters per event, and each origin's first and newest start", async () => {
		const events = nodeEvents('wf', 'node');
		await start(events, A, NOW);
		await start(events, B, NOW + 3_590);
		// Recorded out of order (deliveries settle in any order), within the hour: the same origin.
		await start(events, C, NOW - 10);
		const first = events.origin;
		expect(events.stored(NOW - 60)[first]).toBe(`3.${NOW - 10}.${NOW + 3_590}.${A}${B}${C}`);
		// Every record is kept by its origin's newest start: never shorter, at most an hour longer.
		expect([...readStoredEvents(events.stored(NOW - 60))]).toEqual(
			[A, B, C].map((digest) => [digest, NOW + 3_590]),
		);
		// A start that would stretch the origin beyond an hour begins a new one.
		await start(events, D, NOW + 3_591);
		expect(events.origin).not.toBe(first);
		expect(events.stored(NOW - 60)[events.origin]).toBe(`1.${NOW + 3_591}.${NOW + 3_591}.${D}`);
		// Another process keeps the records until the origin's newest start leaves the window.
		const reader = nodeEvents('wf', 'reader');
		reader.absorb(events.stored(NOW - 60));
		expect(await reader.claim(C, NOW + 3_589)).toBeUndefined();
		expect(Object.keys(events.stored(NOW + 3_589))).toContain(first);
		expect(Object.keys(events.stored(NOW + 3_590))).toEqual([events.origin]);
		expect(
			readStoredEvents({
				short: '1.tooShort',
				array: ['a'],
				timed: `5.7.${'A'.repeat(15)}`,
				odd: '1.2.3.4',
				backwards: `1.9.8.${A}`,
				good: `2.3.4.${B}${C}`,
			}),
		).toEqual(
			new Map([
				[A, 7],
				[B, 4],
				[C, 4],
			]),
		);
	});

	it('keeps every stored string small: a new origin every 500 events, read by another process as it grows', async () => {
		const writer = nodeEvents('wf', 'writer');
		const reader = nodeEvents('wf', 'reader');
		for (let index = 0; index < 1_200; index++) {
			await start(writer, `w${index}`.padEnd(12, '-'), NOW + index);
			if (index % 300 === 0) reader.absorb(writer.stored(NOW - 60));
		}
		const stored = writer.stored(NOW - 60);
		expect(Object.values(stored).map((value) => (value as string).split('.')[0])).toEqual([
			'500',
			'500',
			'200',
		]);
		expect(
			Math.max(...Object.values(stored).map((value) => (value as string).length)),
		).toBeLessThan(500 * 12 + 40);
		reader.absorb(stored);
		expect(readStoredEvents(reader.stored(NOW - 60)).size).toBe(1_200);
		for (const index of [0, 499, 500, 1_199])
			expect(await reader.claim(`w${index}`.padEnd(12, '-'), NOW - 60)).toBeUndefined();
	});
});

/** Claims and settles an event as started, as a recorded delivery does. */
async function start(
	events: ReturnType<typeof nodeEvents>,
	digest: string,
	at: number,
): Promise<void> {
	const claim = await events.claim(digest, at - 1);
	events.settle(digest, claim!, true, at);
}
