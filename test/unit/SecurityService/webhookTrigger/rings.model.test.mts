/**
 * The Security Service Webhook Trigger's promise, checked against generated histories with
 * fast-check's scheduler. A history is a sequence of actions: threats added (critical or low),
 * rings (the caller may leave, n8n may fail to record or record after the grace, the body may be
 * too large), publications (activate or update, with or without a severity filter, with or
 * without removing the version before), unpublishing and restarts (the process's memory cleared,
 * then `init`); some list reads answer 503. Actions start in order; the scheduler interleaves
 * every step of n8n and the service (test/support/harness/fakeN8n.mts), and time (fake) passes only when nothing else
 * can happen. An oracle that knows each threat's history checks every step:
 * - emitted once (twice only for a recording later than the 60 s grace: a documented limit);
 * - never a threat listed before the current publication's baseline, or added while unpublished,
 *   or refused by the filter of the publication it was added under;
 * - a 200 `received` means every threat of the current publication added before the ring was
 *   emitted in a recorded execution (nothing lost, also across restarts);
 * - every ring is answered (none hangs), within its reads and twice the grace (plus n8n's own
 *   late recording), with one of the answers the README documents.
 */
import fc from 'fast-check';
import type { INodeParameters } from 'n8n-workflow';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { nodes } from '../../../../nodes/SecurityService/webhookTrigger/rings.ts';
import { processPacers } from '../../../../nodes/shared/pacing/pacers.ts';
import { RECORDING_GRACE_MS } from '../../../../nodes/shared/webhooks/n8nWebhookContract.ts';
import { propertyRuns } from '../../../support/harness/propertyRuns.mts';
import {
	FakeN8n,
	LATE_RECORDING_MS,
	type RingSpec,
	type Threat,
} from '../../../support/harness/fakeN8n.mts';

type Action =
	| { kind: 'add'; severity: Threat['severity'] }
	| { kind: 'ring'; spec: RingSpec }
	| { kind: 'publish'; critical: boolean; activation: 'activate' | 'update'; removeFirst: boolean }
	| { kind: 'unpublish' }
	| { kind: 'restart' };

interface History {
	initial: Threat['severity'][];
	actions: Action[];
	failReads: boolean[];
}

/** True about once in `n`. */
const oneIn = (n: number) => fc.nat(n - 1).map((x) => x === 0);
const severity = fc.constantFrom<Threat['severity']>('critical', 'low');
const action: fc.Arbitrary<Action> = fc.oneof(
	{ weight: 4, arbitrary: fc.record({ kind: fc.constant('add' as const), severity }) },
	{
		weight: 6,
		arbitrary: fc.record({
			kind: fc.constant('ring' as const),
			spec: fc.record(
				{ leaves: oneIn(3), notRecorded: oneIn(4), late: oneIn(4), tooLarge: oneIn(10) },
				{ requiredKeys: [] },
			),
		}),
	},
	{
		weight: 2,
		arbitrary: fc.record({
			kind: fc.constant('publish' as const),
			critical: fc.boolean(),
			activation: fc.constantFrom('activate' as const, 'update' as const),
			removeFirst: fc.boolean(),
		}),
	},
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant('unpublish' as const) }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant('restart' as const) }) },
);
const history: fc.Arbitrary<History> = fc.record({
	initial: fc.array(severity, { maxLength: 3 }),
	actions: fc.array(action, { minLength: 1, maxLength: 24 }),
	// About one read in six answers 503.
	failReads: fc.array(
		fc.nat(5).map((n) => n === 0),
		{ maxLength: 40 },
	),
});

const parametersOf = (critical: boolean): INodeParameters =>
	critical ? { event: 'newThreat', filters: { severity: 'critical' } } : { event: 'newThreat' };

interface Publication {
	id: number;
	critical: boolean;
}

/** What the trigger may and must do, from each threat's history. */
class Oracle {
	private seq = 0;
	private publications = 0;
	current?: Publication;
	/** n8n is starting (init): the publication goes on, whatever the trigger reads. */
	restarting = false;
	private readonly owner = new Map<string, number | undefined>();
	private readonly addedAt = new Map<string, number>();
	private readonly baselines: { at: number; ids: Set<string> }[] = [];
	private readonly emitted = new Map<string, { late: boolean }>();
	readonly arrival = new Map<number, { seq: number; publication?: number; at: number }>();
	readonly problems: string[] = [];

	/** The published version's parameters, as n8n has them now. */
	published: () => INodeParameters | undefined = () => undefined;

	private accepts(publication: Publication, threat: Threat): boolean {
		return !publication.critical || threat.severity === 'critical';
	}

	added(threat: Threat): void {
		const at = ++this.seq;
		this.addedAt.set(threat.id, at);
		const current = this.current;
		this.owner.set(threat.id, current && this.accepts(current, threat) ? current.id : undefined);
	}

	unpublished(): void {
		this.current = undefined;
	}

	read(baseline: boolean, threats: readonly Threat[] | undefined): void {
		if (!baseline || this.restarting) return;
		const parameters = this.published();
		if (!threats || !parameters) return void (this.current = undefined);
		this.current = { id: ++this.publications, critical: parameters.filters !== undefined };
		this.baselines.push({ at: ++this.seq, ids: new Set(threats.map(({ id }) => id)) });
	}

	arrived(ring: number): void {
		this.arrival.set(ring, { seq: ++this.seq, publication: this.current?.id, at: Date.now() });
	}

	execution(ids: string[], ring: number, late: boolean): void {
		const arrived = this.arrival.get(ring)!;
		for (const id of ids) {
			if (this.owner.get(id) === undefined)
				this.problems.push(`${id} emitted by ring ${ring}: added while unpublished or refused`);
			if (this.baselines.some(({ at, ids }) => at < arrived.seq && ids.has(id)))
				this.problems.push(`${id} emitted by ring ${ring}: it was in a baseline before the ring`);
			const before = this.emitted.get(id);
			if (before && !before.late && !late) this.problems.push(`${id} emitted twice`);
			this.emitted.set(id, { late: late || before?.late === true });
		}
	}

	answered(ring: number, spec: RingSpec, answer: { status?: number; body?: unknown }): void {
		const arrived = this.arrival.get(ring);
		const say = (problem: string) =>
			this.problems.push(
				`ring ${ring} ${JSON.stringify(spec)}: ${JSON.stringify(answer)} ${problem}`,
			);
		if (!arrived) {
			if (answer.status !== 404) say('reached no trigger, yet was not answered 404');
			return;
		}
		const waited = Date.now() - arrived.at;
		if (waited > 2 * RECORDING_GRACE_MS + LATE_RECORDING_MS) say(`waited ${waited} ms`);
		const body = answer.body as { error?: string; received?: boolean } | undefined;
		if (answer.status === undefined) {
			if (!spec.leaves) say('was never answered');
		} else if (spec.tooLarge) {
			if (answer.status !== 413 || body?.error !== 'payload_too_large') say('is not a 413');
		} else if (answer.status === 500) {
			if (!spec.notRecorded) say('is a 500 for a recorded execution');
		} else if (answer.status === 503) {
			if (!['not_ready', 'list_unreadable', 'not_recorded'].includes(body?.error ?? ''))
				say('is not a documented 503');
		} else if (answer.status !== 200 || body?.received !== true) {
			say('is not a documented answer');
		} else {
			this.checkReceived(arrived, say);
		}
	}

	/** At the end, all quiet: a ring is answered 200 and leaves nothing of the publication unemitted. */
	quietRing(answer: { status?: number; body?: unknown }): void {
		if (!this.current) return;
		if (answer.status !== 200)
			this.problems.push(`a quiet ring at the end: ${JSON.stringify(answer)}`);
		for (const [id, owner] of this.owner) {
			if (owner === this.current.id && !this.emitted.has(id))
				this.problems.push(`${id} was never emitted, even by a quiet ring at the end`);
		}
	}

	/** A 200: every threat of the publication current since the ring came, added before it, was emitted. */
	private checkReceived(
		arrived: { seq: number; publication?: number },
		say: (problem: string) => void,
	): void {
		const publication = this.current?.id;
		if (publication === undefined || publication !== arrived.publication) return;
		for (const [id, owner] of this.owner) {
			if (owner === publication && this.addedAt.get(id)! < arrived.seq && !this.emitted.has(id))
				say(`answered received, yet ${id} was never emitted`);
		}
	}
}

/** Lets the scheduler run every step; time passes only when no step can. False: something hangs. */
async function drain(s: fc.Scheduler, done: Promise<unknown>): Promise<boolean> {
	let finished = false;
	void done.then(() => (finished = true));
	for (;;) {
		await new Promise((resolve) => setImmediate(resolve));
		if (s.count() > 0) await s.waitNext(1);
		else if (finished) return true;
		else if (vi.getTimerCount() > 0) await vi.advanceTimersToNextTimerAsync();
		else return false;
	}
}

async function play(s: fc.Scheduler, { initial, actions, failReads }: History): Promise<string[]> {
	let next = 0;
	const threat = (severity: Threat['severity']): Threat => ({ id: `t${++next}`, severity });
	const oracle = new Oracle();
	const n8n = new FakeN8n(async (label) => await s.schedule(Promise.resolve(), label), oracle);
	oracle.published = () => n8n.published;
	n8n.failReads = failReads;
	// Newest first, as the service lists threats; IDs rise with time.
	n8n.threats = initial.map(threat).reverse();
	// The first publication, with nothing under way.
	if (!(await drain(s, n8n.publish(parametersOf(false))))) return ['the first publication hangs'];

	const segments: Exclude<Action, { kind: 'restart' }>[][] = [[]];
	for (const each of actions) {
		if (each.kind === 'restart') segments.push([]);
		else segments.at(-1)!.push(each);
	}
	for (const [index, segment] of segments.entries()) {
		oracle.restarting = true;
		if (index > 0 && !(await drain(s, n8n.restart()))) return ['a restart hangs'];
		oracle.restarting = false;
		const started: Promise<unknown>[] = [];
		let lifecycle: Promise<unknown> = Promise.resolve();
		const run = async () => {
			for (const each of segment) {
				await s.schedule(Promise.resolve(), `next: ${JSON.stringify(each)}`);
				if (each.kind === 'add') {
					const added = threat(each.severity);
					n8n.threats.unshift(added);
					oracle.added(added);
				} else if (each.kind === 'ring') {
					started.push(
						n8n.ring(each.spec).then((answer) => oracle.answered(answer.ring, each.spec, answer)),
					);
				} else {
					lifecycle = lifecycle.then(async () => {
						if (each.kind === 'unpublish' || each.removeFirst) oracle.unpublished();
						if (each.kind === 'unpublish') return await n8n.unpublish();
						return await n8n.publish(
							parametersOf(each.critical),
							each.activation,
							each.removeFirst,
						);
					});
					started.push(lifecycle);
				}
			}
			await Promise.all(started);
		};
		if (!(await drain(s, run()))) return [...oracle.problems, 'a ring or a publication hangs'];
	}
	n8n.failReads = [];
	const quiet = n8n.ring();
	if (!(await drain(s, quiet))) return [...oracle.problems, 'a quiet ring at the end hangs'];
	oracle.quietRing(await quiet);
	return oracle.problems;
}

describe('Security Service Webhook Trigger: model of rings, publications and restarts', () => {
	beforeEach(() => {
		nodes.clear();
		processPacers.clear();
		vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
	});
	afterEach(() => {
		vi.clearAllTimers();
		vi.useRealTimers();
	});

	it('each threat once, none from before the publication, none lost, no ring waits past the grace', async () => {
		await fc.assert(
			fc.asyncProperty(fc.scheduler(), history, async (s, generated) => {
				nodes.clear();
				processPacers.clear();
				vi.clearAllTimers();
				expect(await play(s, generated)).toEqual([]);
			}),
			propertyRuns(300),
		);
	});
});
