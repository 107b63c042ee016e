import { beforeEach, describe, expect, it } from 'vitest';

import {
	eventDigest,
	forgetProcessMemory,
	MAX_STARTED_EVENTS,
	nodeEvents,
	readStored,
	STATIC_DATA_FIELD,
} from '../../nodes/PerformanceService/trigger/startedEvents.ts';

const NOW = 1_763_900_000;

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

describe('stored events', () => {
	it('reads only digest → number entries', () => {
		const stored = readStored({ [STATIC_DATA_FIELD]: { a: NOW, b: 'x', c: null, d: NOW + 1 } });
		expect([...stored]).toEqual([
			['a', NOW],
			['d', NOW + 1],
		]);
		expect(readStored({})).toEqual(new Map());
		expect(readStored({ [STATIC_DATA_FIELD]: ['a'] })).toEqual(new Map());
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

	it('keeps nodes apart and learns what the static data holds', async () => {
		nodeEvents('wf', 'a').absorb(new Map([['e1', NOW]]));
		expect(await nodeEvents('wf', 'a').claim('e1', NOW - 60)).toBeUndefined();
		expect(await nodeEvents('wf', 'b').claim('e1', NOW - 60)).toBeDefined();
		expect(await nodeEvents('other', 'a').claim('e1', NOW - 60)).toBeDefined();
	});

	it(`snapshots at most ${MAX_STARTED_EVENTS} events inside the window, newest kept`, () => {
		const events = nodeEvents('wf', 'node');
		const stored = new Map<string, number>();
		for (let index = 0; index < MAX_STARTED_EVENTS + 10; index++)
			stored.set(`e${index}`, NOW - 1000 + index / 10);
		stored.set('expired', NOW - 100_000);
		events.absorb(stored);
		const snapshot = events.snapshot(NOW - 10_000, ['new', NOW]);
		const digests = Object.keys(snapshot);
		expect(digests).toHaveLength(MAX_STARTED_EVENTS);
		expect(digests).not.toContain('expired');
		expect(digests).not.toContain('e10');
		expect(digests).toContain('e11');
		expect(digests.at(-1)).toBe('new');
		expect(events.countSince(NOW - 10_000)).toBe(MAX_STARTED_EVENTS);
	});

	it('forgets the oldest events once its memory grows past the bound', async () => {
		const events = nodeEvents('wf', 'node');
		const many = Array.from({ length: MAX_STARTED_EVENTS * 2 }, (_, index): [string, number] => [
			`e${index}`,
			NOW - 5000 + index / 10,
		]);
		events.absorb(new Map(many));
		events.prune(NOW - 10_000);
		expect(await events.claim('e0', NOW - 10_000)).toBeDefined();
		expect(await events.claim(`e${MAX_STARTED_EVENTS * 2 - 1}`, NOW - 10_000)).toBeUndefined();
		expect(await events.claim(`e${MAX_STARTED_EVENTS}`, NOW - 10_000)).toBeUndefined();
		expect(await events.claim(`e${MAX_STARTED_EVENTS - 1}`, NOW - 10_000)).toBeDefined();
	});
});
