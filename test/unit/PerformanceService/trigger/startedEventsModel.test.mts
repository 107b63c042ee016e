/**
 * Model of the Performance Service Trigger's promise "one workflow per event" (docs/design.md,
 * "One workflow per event"), run against the real `startOncePerEvent` with n8n's order of work
 * (n8nWebhookContract.ts, A1-A5) played by a small fake of n8n: each call loads the static data
 * from one shared store, n8n wraps it anew before the execution (A4), reads the answer once it
 * has created the execution (A2) and saves the static data whole, when changed, before it answers
 * (A3). Up to two n8n processes share the store; each keeps its own memory; a restart empties it.
 *
 * fast-check's scheduler interleaves every step: each attempt's arrival and its sender leaving,
 * n8n recording it or failing, 20 s ticks of fake time, restarts. After every step the trigger's
 * state is compared with an oracle written as the rules below, over plain sets of event ids:
 *
 * - A process knows an event once it recorded it or loaded static data holding it.
 * - An attempt of a known event is a duplicate. Otherwise it starts unless an attempt of the same
 *   event holds it in the same process; then it waits, in arrival order.
 * - The holder lets go when n8n records it (the event is then known), when n8n answers non-2xx,
 *   or 60 s after its sender left (at once on arrival if it had left already), whichever first.
 * - n8n recording after those 60 s still makes the event known (late).
 * - A save writes what its process knows; a duplicate saves only if its loaded copy lacked some.
 */
import fc from 'fast-check';
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';
import { afterEach, describe, expect, it, vi } from 'vitest';

import {
	eventDigest,
	processMemory,
	startOncePerEvent,
	type NodeEvents,
} from '../../../../nodes/PerformanceService/trigger/startedEvents.ts';
import { FakeResponse, StaticDataStore } from '../../../support/harness/fakeN8nParts.mts';
import { propertyRuns } from '../../../support/harness/propertyRuns.mts';
import { readStoredEvents, STATIC_DATA_FIELD } from '../../../support/harness/startedEvents.mts';

const GRACE_MS = 60_000;
const TICK_MS = 20_000;
const WINDOW_SECONDS = 24 * 3600;
const EVENTS = 2;

type Outcome = 'record' | 'fail' | 'never';
interface Plan {
	event: number;
	process: number;
	/** The sender is gone before the trigger runs. */
	goneFirst: boolean;
	/** The sender leaves at some later point. */
	leaves: boolean;
	outcome: Outcome;
}
type State = 'waiting' | 'started' | 'duplicate' | 'recorded' | 'failed' | 'dead';

const body = (event: number) => ({ id: `evt_${event}`, type: 'alert.opened' });
const digestOf = (event: number) =>
	eventDigest(body(event), Buffer.from(JSON.stringify(body(event))));
const DIGESTS = Array.from({ length: EVENTS }, (_, event) => digestOf(event));

/** The oracle: the rules of the module comment, over sets of event ids. */
class Oracle {
	now = 0;
	db = new Set<number>();
	executions = Array.from({ length: EVENTS }, () => 0);
	late = Array.from({ length: EVENTS }, () => false);
	attempts: Array<{
		plan: Plan;
		state: State;
		snapshot: Set<number>;
		left: boolean;
		deadline?: number;
		order: number;
	}> = [];
	private timers = 0;
	processes = [0, 1].map(() => ({
		known: new Set<number>(),
		holder: new Map<number, number>(),
		queue: new Map<number, number[]>(),
	}));

	arrive(id: number, plan: Plan): void {
		const snapshot = new Set(this.db);
		this.attempts[id] = { plan, state: 'waiting', snapshot, left: plan.goneFirst, order: 0 };
		for (const event of snapshot) this.processes[plan.process].known.add(event);
		this.take(id);
	}

	private take(id: number): void {
		const attempt = this.attempts[id];
		const { event, process } = attempt.plan;
		const memory = this.processes[process];
		if (memory.known.has(event)) {
			attempt.state = 'duplicate';
			if ([...memory.known].some((known) => !attempt.snapshot.has(known)))
				this.db = new Set(memory.known);
			return;
		}
		if (memory.holder.has(event)) {
			memory.queue.set(event, [...(memory.queue.get(event) ?? []), id]);
			return;
		}
		memory.holder.set(event, id);
		attempt.state = 'started';
		if (attempt.left) this.startGrace(id);
	}

	private startGrace(id: number): void {
		this.attempts[id].deadline = this.now + GRACE_MS;
		this.attempts[id].order = ++this.timers;
	}

	private release(id: number): void {
		const { event, process } = this.attempts[id].plan;
		const memory = this.processes[process];
		if (memory.holder.get(event) !== id) return;
		memory.holder.delete(event);
		const queue = memory.queue.get(event) ?? [];
		while (queue.length > 0 && !memory.holder.has(event)) this.take(queue.shift()!);
	}

	leave(id: number): void {
		const attempt = this.attempts[id];
		if (attempt.left || !['waiting', 'started'].includes(attempt.state)) return;
		attempt.left = true;
		if (attempt.state === 'started') this.startGrace(id);
	}

	record(id: number): void {
		const attempt = this.attempts[id];
		const { event, process } = attempt.plan;
		const memory = this.processes[process];
		attempt.state = 'recorded';
		this.executions[event] += 1;
		if (memory.holder.get(event) !== id) this.late[event] = true;
		memory.known.add(event);
		this.release(id);
		this.db = new Set(memory.known);
	}

	fail(id: number): void {
		const attempt = this.attempts[id];
		attempt.state = 'failed';
		if (!attempt.left) this.release(id);
	}

	tick(): void {
		this.now += TICK_MS;
		const due = this.attempts
			.map((attempt, id) => ({ attempt, id }))
			.filter(({ attempt }) => attempt.deadline === this.now && attempt.state !== 'dead')
			.sort((a, b) => a.attempt.order - b.attempt.order);
		for (const { id } of due) this.release(id);
	}

	restart(process: number): void {
		for (const attempt of this.attempts)
			if (attempt?.plan.process === process && ['waiting', 'started'].includes(attempt.state))
				attempt.state = 'dead';
		this.processes[process] = { known: new Set(), holder: new Map(), queue: new Map() };
	}
}

/** The trigger as n8n runs it: the real `startOncePerEvent`, n8n's order of work faked. */
class World {
	store = new StaticDataStore();
	memories = [new Map<string, NodeEvents>(), new Map<string, NodeEvents>()];
	attempts: Array<{
		plan: Plan;
		state: State;
		res: FakeResponse;
		root: IDataObject;
		answer?: IDataObject;
		onStarted?: () => void;
	}> = [];

	arrive(id: number, plan: Plan): void {
		const res = new FakeResponse();
		if (plan.goneFirst) res.leave();
		// Every call loads the static data from the database (A3).
		const root = this.store.load();
		const attempt: World['attempts'][number] = { plan, state: 'waiting', res, root };
		this.attempts[id] = attempt;
		const ctx = {
			getWorkflowStaticData: () => root,
			getMode: () => 'webhook',
			getWorkflow: () => ({ id: 'wf' }),
			getNode: () => ({ id: 'node', name: 'Trigger' }),
			getResponseObject: () => res,
		} as unknown as IWebhookFunctions;
		// This process's memory is the trigger's for this call (it reads it before its first await).
		processMemory.clear();
		for (const [key, events] of this.memories[plan.process]) processMemory.set(key, events);
		const answering = startOncePerEvent(
			ctx,
			body(plan.event),
			Buffer.from(JSON.stringify(body(plan.event))),
			body(plan.event),
			WINDOW_SECONDS,
			Date.now(),
		);
		this.memories[plan.process] = new Map(processMemory);
		void answering.then((answer) => {
			if (attempt.state === 'dead') return;
			if (answer?.workflowData) {
				attempt.state = 'started';
				attempt.answer = answer as IDataObject;
				attempt.onStarted?.();
			} else {
				attempt.state = 'duplicate';
				this.store.save(attempt.root);
			}
		});
	}

	leave(id: number): void {
		if (this.attempts[id].state !== 'dead') this.attempts[id].res.leave();
	}

	/** n8n creates the execution (or cannot), then reads the answer, saves and answers. */
	settle(id: number, outcome: Outcome): void {
		const attempt = this.attempts[id];
		if (attempt.state !== 'started' || outcome === 'never') return;
		this.store.prepareExecution(attempt.root);
		if (outcome === 'fail') {
			attempt.state = 'failed';
			attempt.res.statusCode = 500;
			attempt.res.end(JSON.stringify({ message: 'Workflow could not be started!' }));
			return;
		}
		attempt.state = 'recorded';
		const answer = attempt.answer!.webhookResponse; // A2
		this.store.save(attempt.root);
		attempt.res.end(JSON.stringify(answer));
	}

	restart(process: number): void {
		this.memories[process] = new Map();
		for (const attempt of this.attempts)
			if (attempt?.plan.process === process && ['waiting', 'started'].includes(attempt.state)) {
				attempt.state = 'dead';
				attempt.res.leave();
			}
	}

	storedEvents(): number[] {
		const stored = readStoredEvents(this.store.saved[STATIC_DATA_FIELD]);
		return DIGESTS.flatMap((digest, event) => (stored.has(digest) ? [event] : []));
	}
}

/** Lets every promise already due run (real setImmediate: only setTimeout and Date are fake). */
async function settleDue(): Promise<void> {
	for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
}

function compare(world: World, oracle: Oracle, step: string): void {
	expect(
		world.attempts.map((attempt) => attempt?.state),
		step,
	).toEqual(oracle.attempts.map((attempt) => attempt?.state));
	expect(world.storedEvents(), step).toEqual([...oracle.db].sort());
	// The rule "no attempt waits past the grace": a waiting attempt waits behind a holder of its
	// event in its process that n8n has not answered while its sender is there, or whose sender
	// left less than 60 s ago (n8n's 500 to a sender already gone changes nothing).
	for (const attempt of oracle.attempts) {
		if (attempt?.state !== 'waiting') continue;
		const { event, process } = attempt.plan;
		const holder = oracle.attempts[oracle.processes[process].holder.get(event) ?? -1];
		expect(['started', 'failed'], step).toContain(holder?.state);
		if (holder?.left || holder?.state === 'failed')
			expect(holder.deadline! - oracle.now, step).toBeGreaterThan(0);
	}
	// Every answer sent to a sender still there says what happened.
	for (const attempt of world.attempts) {
		if (attempt?.res.body === undefined) continue;
		const expected = {
			duplicate: [200, { received: true, duplicate: true }],
			recorded: [200, { received: true }],
			failed: [500, { message: 'Workflow could not be started!' }],
		}[attempt.state as 'duplicate'];
		expect([attempt.res.statusCode, JSON.parse(attempt.res.body)], step).toEqual(expected);
	}
}

const plan = fc.record({
	event: fc.nat(EVENTS - 1),
	process: fc.nat(1),
	goneFirst: fc.boolean(),
	leaves: fc.boolean(),
	outcome: fc.constantFrom<Outcome>('record', 'record', 'fail', 'never'),
});

const history = fc.record({
	processes: fc.constantFrom(1, 2),
	plans: fc.array(plan, { minLength: 1, maxLength: 7 }),
	ticks: fc.nat(8),
	restarts: fc.array(fc.nat(1), { maxLength: 2 }),
});

type History = typeof history extends fc.Arbitrary<infer T> ? T : never;

async function runHistory(
	s: fc.Scheduler,
	{ processes, plans: given, ticks, restarts }: History,
): Promise<void> {
	// A sender of an attempt n8n never answers leaves at some point (the service times out).
	const plans = given.map((p) => ({
		...p,
		process: p.process % processes,
		leaves: p.leaves || (p.outcome === 'never' && !p.goneFirst),
	}));
	const world = new World();
	const oracle = new Oracle();
	const log: string[] = [];
	const step = async (name: string, run: () => void, model: () => void): Promise<void> => {
		log.push(name);
		run();
		model();
		await settleDue();
		compare(world, oracle, log.join(' → '));
	};
	const arrive = (id: number) =>
		step(
			`arrive #${id} ${JSON.stringify(plans[id])}`,
			() => {
				world.arrive(id, plans[id]);
				// n8n's part comes once the trigger returned workflow data, at a point the scheduler picks.
				const { outcome } = plans[id];
				world.attempts[id].onStarted = () =>
					void s.scheduleSequence([
						{
							label: `n8n ${outcome} #${id}`,
							builder: () =>
								step(
									`n8n ${outcome} #${id}`,
									() => world.settle(id, outcome),
									() => {
										if (oracle.attempts[id].state !== 'started') return;
										if (outcome === 'record') oracle.record(id);
										if (outcome === 'fail') oracle.fail(id);
									},
								),
						},
					]);
			},
			() => oracle.arrive(id, plans[id]),
		);
	const tick = () =>
		step(
			'tick 20 s',
			() => vi.advanceTimersByTime(TICK_MS),
			() => oracle.tick(),
		);

	plans.forEach((p, id) =>
		s.scheduleSequence([
			{ label: `arrive #${id}`, builder: () => arrive(id) },
			...(p.leaves
				? [
						{
							label: `leave #${id}`,
							builder: () =>
								step(
									`leave #${id}`,
									() => world.leave(id),
									() => oracle.leave(id),
								),
						},
					]
				: []),
		]),
	);
	s.scheduleSequence(Array.from({ length: ticks }, () => ({ label: 'tick', builder: tick })));
	for (const process of restarts.filter((p) => p < processes))
		s.scheduleSequence([
			{
				label: `restart ${process}`,
				builder: () =>
					step(
						`restart ${process}`,
						() => world.restart(process),
						() => oracle.restart(process),
					),
			},
		]);
	const runScheduled = async (): Promise<void> => {
		for (;;) {
			await settleDue();
			if (s.count() === 0) return;
			await s.waitOne();
		}
	};
	await runScheduled();

	// Every sender leaves and the grace passes: nothing may still wait.
	for (let id = 0; id < plans.length; id++)
		await step(
			`leave #${id}`,
			() => world.leave(id),
			() => oracle.leave(id),
		);
	for (let round = 0; round <= plans.length * 3; round++) {
		await tick();
		await runScheduled();
	}
	expect(
		world.attempts.filter((attempt) => attempt.state === 'waiting'),
		log.join(' → '),
	).toEqual([]);

	// One execution per event: within one process, a second one needs n8n to have recorded the
	// first after its grace; across two processes, it needs the rules' "did not know" (above).
	if (processes === 1)
		for (let event = 0; event < EVENTS; event++)
			if (!oracle.late[event])
				expect(oracle.executions[event], log.join(' → ')).toBeLessThanOrEqual(1);

	// No event is refused for good: a new attempt of an event never recorded starts. Within one
	// process, one of an event recorded is a duplicate.
	for (let event = 0; event < EVENTS; event++) {
		const id = plans.length;
		const recordedBefore = oracle.executions[event];
		plans.push({ event, process: 0, goneFirst: false, leaves: false, outcome: 'record' });
		await arrive(id);
		await runScheduled();
		if (recordedBefore === 0) expect(world.attempts[id].state, log.join(' → ')).toBe('recorded');
		else if (processes === 1) expect(world.attempts[id].state, log.join(' → ')).toBe('duplicate');
	}
}

afterEach(() => {
	vi.useRealTimers();
	processMemory.clear();
});

describe('Performance Service Trigger: one workflow per event, as a model', () => {
	it('matches the oracle at every step under any interleaving of senders, n8n, time, restarts and two processes', async () => {
		await fc.assert(
			fc.asyncProperty(fc.scheduler(), history, async (s, generated) => {
				vi.useFakeTimers({
					toFake: ['setTimeout', 'clearTimeout', 'Date'],
					now: 1_763_900_000_000,
				});
				try {
					await runHistory(s, generated);
				} finally {
					vi.useRealTimers();
					processMemory.clear();
				}
			}),
			propertyRuns(150),
		);
	});
});
