import { performance } from 'node:perf_hooks';

/** Sends requests with a fixed number in flight and times each answer. */

export interface Request {
	/** Where to POST it (several n8n webhook processes can share one batch). */
	url: string;
	body: string;
	headers: Record<string, string>;
}

export interface Answer {
	index: number;
	status: number;
	text: string;
	ms: number;
}

export interface LoadResult {
	answers: Answer[];
	wallMs: number;
}

async function send(request: Request, index: number): Promise<Answer> {
	const started = performance.now();
	try {
		const response = await fetch(request.url, {
			method: 'POST',
			headers: request.headers,
			body: request.body,
		});
		const text = await response.text();
		return { index, status: response.status, text, ms: performance.now() - started };
	} catch (error) {
		return { index, status: 0, text: (error as Error).message, ms: performance.now() - started };
	}
}

/**
 * POSTs `count` requests, `inFlight` at a time. `requestAt(index)` builds each one just before it
 * is sent (so a signature's timestamp is fresh however long the batch takes). `onAnswer` runs
 * synchronously as each answer arrives (the crash test kills n8n from it the moment the last one
 * is in).
 */
export async function sendAll(
	count: number,
	requestAt: (index: number) => Request,
	inFlight: number,
	onAnswer?: (answer: Answer, answered: number) => void,
): Promise<LoadResult> {
	const answers: Answer[] = new Array<Answer>(count);
	let next = 0;
	let answered = 0;
	const started = performance.now();
	const worker = async (): Promise<void> => {
		while (next < count) {
			const index = next++;
			const answer = await send(requestAt(index), index);
			answers[index] = answer;
			answered += 1;
			onAnswer?.(answer, answered);
		}
	};
	await Promise.all(Array.from({ length: Math.min(inFlight, count) }, worker));
	return { answers, wallMs: performance.now() - started };
}

/** The p-th percentile (0-100) by nearest rank. */
export function percentile(values: number[], p: number): number {
	if (values.length === 0) return Number.NaN;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
