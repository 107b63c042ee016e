import { beforeEach, describe, expect, it } from 'vitest';

import {
	eventDigest,
	forgetProcessMemory,
	MAX_STARTED_EVENTS,
	nodeEvents,
	readStoredEvents,
} from '../../../../nodes/PerformanceService/trigger/startedEvents.ts';

const NOW = 1_763_900_000;
/** Digests are 22 characters, as `eventDigest` makes them. */
const [E1, E2, EXPIRED, O0] = ['e1', 'e2', 'expired', 'o0'].map((name) => name.padEnd(22, '-'));

describe('event digest', () => {
	it('is the id when there is one, whatever else the body holds', () => {
		const first = eventDigest({ id: 'evt_1', type: 'a' }, Buffer.from('{"id":"evt_1","type":"a"}'));
		const retry = eventDigest(
			{ id: 'evt_1', type: 'a' },
			Buffer.from('{ "id": "evt_1", "type": "a" }'),
		);
		expect(first).toBe(retry);
		expect(first).toMatch(/^[A-Za-z0-9_-]{22}$/);
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

	it('reads the format stored before origins (digest → seconds) and stores it in the new one', async () => {
		const events = nodeEvents('wf', 'node');
		events.absorb({ [E1]: NOW, [EXPIRED]: NOW - 100_000, junk: 'x' });
		expect(await events.claim(E1, NOW - 60)).toBeUndefined();
		const stored = events.stored(NOW - 60);
		expect(Object.keys(stored)).toEqual([events.origin]);
		expect([...readStoredEvents(stored)]).toEqual([[E1, NOW]]);
	});

	it(`stores at most ${MAX_STARTED_EVENTS} events inside the window, the oldest of any origin forgotten first`, async () => {
		const older = nodeEvents('wf', 'older');
		const events = nodeEvents('wf', 'node');
		await start(older, EXPIRED, NOW - 100_000);
		await start(older, O0, NOW - 2000);
		events.absorb(older.stored(NOW - 200_000));
		for (let index = 0; index < MAX_STARTED_EVENTS; index++)
			await start(events, `e${index}`.padEnd(22, '-'), NOW - 1000 + Math.floor(index / 10));
		const stored = readStoredEvents(events.stored(NOW - 10_000));
		expect(stored.size).toBe(MAX_STARTED_EVENTS);
		expect(stored.has(EXPIRED)).toBe(false);
		expect(stored.has(O0)).toBe(false);
		expect(stored.has('e0'.padEnd(22, '-'))).toBe(true);
		expect(await events.claim(O0, NOW - 10_000)).toBeDefined();
		expect(await events.claim(E1.padEnd(22, '-'), NOW - 10_000)).toBeUndefined();
	});

	it('keeps every record it stores readable: 22 digest characters and 6 of seconds per event', async () => {
		const events = nodeEvents('wf', 'node');
		await start(events, 'A'.repeat(22), NOW);
		await start(events, 'B'.repeat(22), 2 ** 36 - 1);
		const value = events.stored(NOW - 60)[events.origin] as string;
		expect(value).toMatch(/^2\.([A-Za-z0-9_-]{28}){2}$/);
		expect([...readStoredEvents({ x: value })]).toEqual([
			['A'.repeat(22), NOW],
			['B'.repeat(22), 2 ** 36 - 1],
		]);
		expect(readStoredEvents({ x: '1.tooShort', y: ['a'], z: '5.' + 'A'.repeat(28) })).toEqual(
			new Map([['A'.repeat(22), 0]]),
		);
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
