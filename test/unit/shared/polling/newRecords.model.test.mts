/**
 * The poll engine's promise for new records, checked against generated list histories (the rules:
 * docs/design.md, "Poll triggers"; the model and its oracle: listModel.mts). A failure prints the
 * seed and the shrunk history; replay it with PROPERTY_SEED=<seed>.
 */
import fc from 'fast-check';
import { afterEach, describe, it, vi } from 'vitest';

import { propertyRuns } from '../../../support/harness/propertyRuns.mts';
import {
	commandsOf,
	listCommands,
	ListWorld,
	type ListShape,
} from '../../../support/polling/listModel.mts';

afterEach(() => {
	vi.restoreAllMocks();
});

const order = fc.constantFrom('newestFirst', 'oldestFirst') as fc.Arbitrary<ListShape['order']>;

async function run(
	shape: ListShape,
	durableCursors: boolean,
	initial: number,
	commands: Iterable<fc.AsyncCommand<object, ListWorld>>,
	{ configuration = 0, published = false } = {},
): Promise<void> {
	const world = new ListWorld(shape, durableCursors, initial, configuration);
	// Publishing runs the trigger's first poll.
	if (published) await world.poll();
	await fc.asyncModelRun(() => ({ model: {}, real: world }), commands);
	await world.settle();
}

const shortList = (shape: fc.Arbitrary<ListShape>, runs: number, batch = 4) =>
	fc.assert(
		fc.asyncProperty(
			shape,
			fc.boolean(),
			fc.nat(12),
			fc.commands(listCommands(batch), { maxCommands: 30 }),
			async (listShape, durable, initial, commands) => {
				await run(listShape, durable, initial, commands);
			},
		),
		propertyRuns(runs),
	);

const longList = (shape: fc.Arbitrary<ListShape>, runs: number, initial: number[]) =>
	fc.assert(
		fc.asyncProperty(
			shape,
			fc.boolean(),
			fc.constantFrom(...initial),
			fc.commands(listCommands(3000), { maxCommands: 10 }),
			async (listShape, durable, start, commands) => {
				await run(listShape, durable, start, commands);
			},
		),
		propertyRuns(runs),
	);

/** Runs in `npm test` of the properties that target one kind of history each. */
const RUNS = { anyOrder: 20, refused: 20, testEvent: 30, inParts: 4 };

/** A published, filtered list of 30 dated or numbered records in pages of ten, under `commands`. */
async function filteredPagesOfTen(
	commands: Array<fc.Arbitrary<fc.AsyncCommand<object, ListWorld>>>,
	maxCommands: number,
	runs: number,
): Promise<void> {
	const shape = fc.record({
		ids: fc.constantFrom('dated', 'numbered'),
		order,
		pageSize: fc.constant(10),
	}) as fc.Arbitrary<ListShape>;
	await fc.assert(
		fc.asyncProperty(
			shape,
			fc.boolean(),
			fc.commands(commands, { maxCommands }),
			async (listShape, durable, history) => {
				await run(listShape, durable, 30, history, { configuration: 1, published: true });
			},
		),
		propertyRuns(runs),
	);
}

const pageSize = fc.integer({ min: 1, max: 5 });
const longPages = fc.constantFrom(100, 500, 1000);

describe('new records: the promise over generated histories', () => {
	it('a short list whose records carry a date or a rising number', async () => {
		await shortList(fc.record({ ids: fc.constantFrom('dated', 'numbered'), order, pageSize }), 150);
	});

	it('a short list in no visible order', async () => {
		await shortList(fc.record({ ids: fc.constant('opaque'), order, pageSize }), 150);
	});

	it("the audit list's window: the newest few of a dated list, in one page", async () => {
		const window = fc.integer({ min: 2, max: 6 });
		const shape = window.map(
			(size): ListShape => ({ ids: 'dated', order: 'newestFirst', pageSize: 100, window: size }),
		);
		await shortList(shape, 100, 9);
	});

	it('a long list whose records carry a date or a rising number', async () => {
		const shape = fc.record({
			ids: fc.constantFrom('dated', 'numbered'),
			order,
			pageSize: longPages,
		});
		await longList(shape, 25, [0, 150, 2000]);
	});

	it('a long list in no visible order', async () => {
		const shape = fc.record({ ids: fc.constant('opaque'), order, pageSize: longPages });
		await longList(shape, 15, [0, 2000]);
	});

	it('a filtered list in pages of ten, batches at the new end in any order', async () => {
		const { add, poll, cutPoll } = commandsOf(300, ['new']);
		await filteredPagesOfTen([add, poll, cutPoll], 6, RUNS.anyOrder);
	});

	it('a filtered list in pages of ten, more than 200 records refused (batches in order)', async () => {
		const { add, poll, cutPoll } = commandsOf(300, ['new'], true);
		await filteredPagesOfTen([add, poll, cutPoll], 6, RUNS.refused);
	});

	it('Fetch Test Event on a filtered list in pages of ten (batches in order)', async () => {
		const { add, remove, poll, fetchTestEvent } = commandsOf(30, undefined, true);
		await filteredPagesOfTen([add, remove, poll, fetchTestEvent], 8, RUNS.testEvent);
	});

	it('a long list in no visible order, read in parts under the poll budget', async () => {
		const shape = fc.record({ ids: fc.constant('opaque'), order, pageSize: fc.constant(500) });
		const { add, budgetPoll } = commandsOf(3);
		await fc.assert(
			fc.asyncProperty(
				shape,
				fc.commands([add, budgetPoll], { maxCommands: 12 }),
				async (listShape, commands) => {
					await run(listShape, true, 3000, commands);
				},
			),
			propertyRuns(RUNS.inParts),
		);
	});
});
