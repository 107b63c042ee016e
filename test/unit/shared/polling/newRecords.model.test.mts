/**
 * The poll engine's promise for new records, checked against generated list histories (the rules:
 * docs/design.md, "Poll triggers"; the model and its oracle: listModel.mts). A failure prints the
 * seed and the shrunk history; replay it with PROPERTY_SEED=<seed>.
 */
import fc from 'fast-check';
import { afterEach, describe, it, vi } from 'vitest';

import { propertyRuns, propertyTimeout } from '../../../support/harness/propertyRuns.mts';
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

/**
 * A published list (its first read whole: every record listed then is old) of as many records as
 * one of `initial`, under `commands`.
 */
const publishedList = (
	shape: fc.Arbitrary<ListShape>,
	runs: number,
	initial: number[],
	commands: Array<fc.Arbitrary<fc.AsyncCommand<object, ListWorld>>>,
) =>
	fc.assert(
		fc.asyncProperty(
			shape,
			fc.boolean(),
			fc.constantFrom(...initial),
			fc.commands(commands, { maxCommands: 8 }),
			async (listShape, durable, start, history) => {
				await run(listShape, durable, start, history, { published: true });
			},
		),
		propertyRuns(runs),
	);

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

/**
 * A property of `runs` histories in `npm test` (PROPERTY_RUNS replaces them, and grows the test's
 * time limit in proportion: propertyRuns.mts).
 */
function property(name: string, runs: number, check: (runs: number) => Promise<void>): void {
	it(name, () => check(runs), propertyTimeout(runs));
}

describe('new records: the promise over generated histories', () => {
	property('a short list whose records carry a date or a rising number', 150, async (runs) => {
		await shortList(
			fc.record({ ids: fc.constantFrom('dated', 'numbered'), order, pageSize }),
			runs,
		);
	});

	property('a short list in no visible order', 150, async (runs) => {
		await shortList(fc.record({ ids: fc.constant('opaque'), order, pageSize }), runs);
	});

	property(
		"the audit list's window: the newest few of a dated list, in one page",
		100,
		async (runs) => {
			const window = fc.integer({ min: 2, max: 6 });
			const shape = window.map(
				(size): ListShape => ({ ids: 'dated', order: 'newestFirst', pageSize: 100, window: size }),
			);
			await shortList(shape, runs, 9);
		},
	);

	property('a long list whose records carry a date or a rising number', 25, async (runs) => {
		const shape = fc.record({
			ids: fc.constantFrom('dated', 'numbered'),
			order,
			pageSize: longPages,
		});
		await longList(shape, runs, [0, 150, 2000]);
	});

	property('a long list in no visible order', 15, async (runs) => {
		const shape = fc.record({ ids: fc.constant('opaque'), order, pageSize: longPages });
		await longList(shape, runs, [0, 2000]);
	});

	property(
		'a filtered list in pages of ten, batches at the new end in any order',
		20,
		async (runs) => {
			const { add, poll, cutPoll } = commandsOf(300, ['new']);
			await filteredPagesOfTen([add, poll, cutPoll], 6, runs);
		},
	);

	property(
		'a filtered list in pages of ten, more than 200 records refused (batches in order)',
		20,
		async (runs) => {
			const { add, poll, cutPoll } = commandsOf(300, ['new'], true);
			await filteredPagesOfTen([add, poll, cutPoll], 6, runs);
		},
	);

	property(
		'Fetch Test Event on a filtered list in pages of ten (batches in order)',
		30,
		async (runs) => {
			const { add, remove, poll, fetchTestEvent } = commandsOf(30, undefined, true);
			await filteredPagesOfTen([add, remove, poll, fetchTestEvent], 8, runs);
		},
	);

	property(
		'a long list in no visible order, read in parts under the poll budget',
		4,
		async (runs) => {
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
				propertyRuns(runs),
			);
		},
	);

	// Issue 37's fifth case: a record added where no record was added before (inside, or at the
	// other end) is emitted, also once records added at one end made the list look ordered.
	property(
		'a short list in no visible order, records added at either end or inside',
		30,
		async (runs) => {
			const shape = fc.record({ ids: fc.constant('opaque'), order, pageSize });
			const { add, remove, poll } = commandsOf(4, ['new', 'old']);
			const { add: addInside } = commandsOf(4, ['inside']);
			await publishedList(shape, runs, [2, 6, 10], [add, addInside, remove, poll]);
		},
	);

	// Issue 37's first case: a burst of more than the 1,000 IDs an ordered list's memory holds,
	// read a few pages per poll, is emitted once.
	property(
		'a burst at the new end of a long list, read in parts under the poll budget',
		12,
		async (runs) => {
			const shape = fc.record({
				ids: fc.constantFrom('dated', 'numbered'),
				order,
				pageSize: fc.constantFrom(500, 1000),
			}) as fc.Arbitrary<ListShape>;
			const { add, budgetPoll, poll } = commandsOf(3000, ['new'], true);
			await publishedList(shape, runs, [150, 500], [add, budgetPoll, budgetPoll, budgetPoll, poll]);
		},
	);

	// Issue 37's fourth case: records leaving anywhere (at the ends too) make no record new.
	property(
		'records leave a long list in no visible order (batches added at its ends)',
		12,
		async (runs) => {
			const shape = fc.record({ ids: fc.constant('opaque'), order, pageSize: longPages });
			const { add, remove, poll } = commandsOf(100, ['new', 'old']);
			await publishedList(shape, runs, [1500, 2000], [add, remove, remove, poll]);
		},
	);
});
