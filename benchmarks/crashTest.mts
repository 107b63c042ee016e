import { delay } from '../test/support/n8n/processes.mts';
import { progress } from '../test/support/n8n/progress.mts';
import {
	is2xx,
	newEvents,
	requestsFor,
	settled,
	statusCounts,
} from '../test/support/n8n/eventBatch.mts';
import type { Event, Workload } from '../test/support/n8n/eventBatch.mts';
import { IN_FLIGHT, sendAndCount } from './benchBatch.mts';
import type { SendFigures } from './benchBatch.mts';
import { countFor, UNFINISHED } from '../test/support/n8n/executionStore.mts';
import { sendAll } from '../test/support/n8n/loadDriver.mts';

/**
 * Retries and crashes, on a workflow that has already taken `loadEvents`:
 * 1. each of `loadEvents` once more (re-signed, as the service's retries are): new executions;
 * 2. `count` new deliveries, n8n SIGKILLed the moment the last answer arrives, restarted:
 *    acknowledged (2xx) deliveries that left no execution;
 * 3. after that restart, `loadEvents` and then step 2's deliveries once more: new executions
 *    (what the trigger remembers across a restart is only what n8n saved; step 2's events were
 *    never repeated before the crash, so only the saves of their own calls recorded them).
 */

export interface CrashFigures {
	repeat: SendFigures;
	sent: number;
	answers: Record<string, number>;
	acknowledged: number;
	acknowledgedWithoutExecution: number;
	executions: number;
	statuses: Record<string, number>;
	afterRestart: { load: SendFigures; crash: SendFigures };
}

export interface Killable {
	/** The process group to SIGKILL. */
	pgid: number;
	/** Waits for the killed processes to be gone and starts them again. */
	restart(): Promise<void>;
}

export async function crashTest(
	work: Workload,
	target: Killable,
	loadEvents: Event[],
	count: number,
	onSent?: (events: Event[]) => void,
): Promise<CrashFigures> {
	progress(`    the ${loadEvents.length} deliveries of the last batch once more ...`);
	const repeat = await sendAndCount(work, loadEvents);

	progress(`    ${count} deliveries, ${IN_FLIGHT} in flight, SIGKILL at the last answer ...`);
	const events = newEvents(count);
	onSent?.(events);
	const afterId = await work.store.maxId();
	const { pgid } = target;
	const { answers } = await sendAll(
		count,
		requestsFor(work.urls, events),
		IN_FLIGHT,
		(_answer, answered) => {
			if (answered === count) process.kill(-pgid, 'SIGKILL');
		},
	);
	progress(`    answers ${JSON.stringify(statusCounts(answers))}; restarting n8n ...`);
	await target.restart();
	const acknowledgedIds = answers.filter(is2xx).map((answer) => events[answer.index].id);
	await delay(5000);
	const leftOver = new Set(
		(await work.store.executions(work.workflowId, afterId))
			.filter((row) => UNFINISHED.has(row.status))
			.map((row) => row.id),
	);
	const rows = await settled(work, afterId, 0, { leftOver });
	const counts = countFor(rows, acknowledgedIds);

	progress(
		`    after the restart: the ${loadEvents.length} of the last batch and the ${count} of the crash once more ...`,
	);
	const load = await sendAndCount(work, loadEvents);
	const crash = await sendAndCount(work, events);
	return {
		repeat,
		sent: count,
		answers: statusCounts(answers),
		acknowledged: acknowledgedIds.length,
		acknowledgedWithoutExecution: counts.missing,
		executions: counts.executions,
		statuses: counts.statuses,
		afterRestart: { load, crash },
	};
}
