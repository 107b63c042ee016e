import type { INodeProperties } from 'n8n-workflow';

/** Requests in flight at once by default: enough to hide the service's latency on bulk runs. */
export const DEFAULT_PARALLEL_REQUESTS = 100;
export const MAX_PARALLEL_REQUESTS = 500;

type ItemOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * Runs `task` for items 0 … count-1 with at most `parallel` running at once, started in item
 * order. With `stopOnError`, no further item is started once one has failed (those already
 * running finish). The outcomes are in item order; an item never started has none.
 */
export async function runItemsInParallel<T>(
	count: number,
	parallel: number,
	task: (itemIndex: number) => Promise<T>,
	stopOnError: boolean,
): Promise<Array<ItemOutcome<T> | undefined>> {
	const outcomes = new Array<ItemOutcome<T> | undefined>(count).fill(undefined);
	let next = 0;
	let failed = false;

	const worker = async (): Promise<void> => {
		while (next < count && !(stopOnError && failed)) {
			const itemIndex = next++;
			try {
				outcomes[itemIndex] = { ok: true, value: await task(itemIndex) };
			} catch (error) {
				outcomes[itemIndex] = { ok: false, error };
				failed = true;
			}
		}
	};
	const workers = Math.max(1, Math.min(Math.floor(parallel) || 1, count));
	await Promise.all(Array.from({ length: workers }, worker));
	return outcomes;
}

/** Reads the option; anything that is not a whole number of at least 1 falls back to the default. */
export function parallelRequestsOf(value: unknown): number {
	const number = typeof value === 'string' ? Number(value) : value;
	if (typeof number !== 'number' || !Number.isFinite(number) || number < 1)
		return DEFAULT_PARALLEL_REQUESTS;
	return Math.min(Math.floor(number), MAX_PARALLEL_REQUESTS);
}

/** The "Options" collection of both action nodes, shown on every operation. */
export const itemOptionsProperty: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Parallel Requests',
			name: 'parallelRequests',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_PARALLEL_REQUESTS },
			default: DEFAULT_PARALLEL_REQUESTS,
			description:
				"How many input items are sent to the service at once. Without this option, reads send 100 at once and writes (Create, Trigger, Resolve, Reoptimize) one at a time, so that a failed write stops the next ones. The credential's rate limit is kept to either way.",
		},
	],
};
