/**
 * Site status changes, checked against generated histories: statuses that change, flap, go missing
 * or change case; sites added and removed; polls cut short or failing; restarts with n8n's durable
 * poll cursors on and off; a change of the filter. The oracle keeps what the trigger's memory
 * should hold (the last status each site was read with) and, with durable cursors off, what n8n
 * saved (static data is saved only when a poll emits, or at activation); each poll must emit
 * exactly the sites whose status differs from that one (not only in case, a missing status is no
 * change) and that the filter accepts, with it as `previousStatus`, and nothing at a baseline.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { EventList, RecordFilter } from '../../../../nodes/shared/polling/listRecords.ts';
import { pollStatusChanges } from '../../../../nodes/shared/polling/statusChanges.ts';
import { propertyRuns } from '../../../support/harness/propertyRuns.mts';
import { loggedCommand } from '../../../support/polling/listModel.mts';
import { node } from '../../../support/polling/records.mts';

afterEach(() => {
	vi.restoreAllMocks();
});

const STATUSES = ['HEALTHY', 'DEGRADED', 'CRITICAL', 'PENDING'];
const change = { field: 'status', previousField: 'previousStatus' };
const FILTERS: RecordFilter[][] = [[], [{ fields: ['status'], values: ['critical'] }]];

interface Site {
	id: string;
	status?: string;
}

interface Known {
	configuration: number;
	statuses: Map<string, string>;
}

class StatusWorld {
	sites: Site[] = [];
	private serial = 0;
	private clock = 0;
	configuration = 0;
	live: IDataObject | undefined;
	saved: IDataObject | undefined;
	/** What the memory should hold: undefined before the configuration's first poll. */
	known: Known | undefined;
	savedKnown: Known | undefined;
	private activating = true;
	log: string[] = [];

	constructor(
		readonly pageSize: number,
		readonly durableCursors: boolean,
		initial: number,
	) {
		vi.spyOn(Date, 'now').mockImplementation(() => this.clock);
		for (let index = 0; index < initial; index++) this.add(index % STATUSES.length);
	}

	add(status: number): void {
		this.sites.push({ id: `site_${++this.serial}`, status: STATUSES[status] });
		this.log.push(`add site_${this.serial} ${STATUSES[status]}`);
	}

	/** Sets a site's status: one of STATUSES, in lower case when `lower`, or missing. */
	set(at: number, status: number | null, lower: boolean): void {
		const site = this.sites[Math.floor(at * this.sites.length)] as Site | undefined;
		if (!site) return;
		const text = status === null ? undefined : STATUSES[status];
		site.status = lower ? text?.toLowerCase() : text;
		this.log.push(`set ${site.id} ${site.status ?? '(missing)'}`);
	}

	remove(at: number): void {
		const [site] = this.sites.splice(Math.floor(at * this.sites.length), 1);
		if (site) this.log.push(`remove ${site.id}`);
	}

	configure(configuration: number): void {
		if (configuration === this.configuration) return;
		this.configuration = configuration;
		this.activating = true;
		this.log.push(`configure ${configuration}`);
	}

	restart(): void {
		this.live = this.saved;
		this.known = this.savedKnown && {
			configuration: this.savedKnown.configuration,
			statuses: new Map(this.savedKnown.statuses),
		};
		this.log.push('restart');
	}

	async poll(pages?: number, failAt?: number): Promise<void> {
		const fetched: number[] = [];
		const listed = this.sites.map((site) => ({ ...site }));
		const list: EventList = {
			node,
			serviceName: 'Test Service',
			plural: 'sites',
			budgetMs: pages === undefined ? undefined : pages + 2,
			readPage: async (at) => {
				this.clock += 1;
				const page = Number(at?.qs?.page ?? 1);
				fetched.push(page);
				if (failAt !== undefined && fetched.length > failAt) throw new Error('unavailable');
				const records = listed.slice((page - 1) * this.pageSize, page * this.pageSize);
				const next = page * this.pageSize < listed.length ? { qs: { page: page + 1 } } : undefined;
				return await Promise.resolve({ records: records as IDataObject[], next });
			},
		};
		const configuration = `configuration ${this.configuration}`;
		let result;
		try {
			result = await pollStatusChanges(
				list,
				this.live,
				configuration,
				change,
				FILTERS[this.configuration],
			);
		} catch {
			this.log.push(`poll failed after ${fetched.length} pages`);
			expect(failAt).toBeDefined();
			return;
		}
		const emitted = result.records.map(
			({ id, previousStatus }) => `${String(id)}<${String(previousStatus)}`,
		);
		this.log.push(`poll read [${fetched.join(' ')}] emitted [${emitted.join(' ')}]`);

		// What the poll should have done, from the pages it read.
		const read = fetched.flatMap((page) =>
			listed.slice((page - 1) * this.pageSize, page * this.pageSize),
		);
		const cut = pages !== undefined && fetched.length >= pages && read.length < listed.length;
		const baseline = this.known?.configuration !== this.configuration;
		const before = baseline ? new Map<string, string>() : (this.known as Known).statuses;
		const after = fetched[0] === 1 && !cut ? new Map<string, string>() : new Map(before);
		const expected: string[] = [];
		for (const site of read) {
			const previous = before.get(site.id);
			const status = site.status ?? previous;
			if (status === undefined) continue;
			after.set(site.id, status);
			const accepted =
				FILTERS[this.configuration].length === 0 || status.toLowerCase() === 'critical';
			if (
				!baseline &&
				previous !== undefined &&
				previous.toLowerCase() !== status.toLowerCase() &&
				accepted
			) {
				expected.push(`${site.id}<${previous}`);
			}
		}
		expect(emitted, this.log.join('\n')).toEqual(expected);
		this.known = { configuration: this.configuration, statuses: after };
		this.live = JSON.parse(JSON.stringify(result.memory)) as IDataObject;
		if (this.durableCursors || emitted.length > 0 || this.activating) {
			this.saved = this.live;
			this.savedKnown = { configuration: this.configuration, statuses: new Map(after) };
		}
		this.activating = false;
	}
}

const command = (label: string, run: (world: StatusWorld) => Promise<void> | void) =>
	loggedCommand(label, run);

const fraction = fc.integer({ min: 0, max: 99 }).map((value) => value / 100);
const status = fc.integer({ min: 0, max: STATUSES.length - 1 });

const commands = [
	status.map((value) => command(`add(${value})`, (world) => world.add(value))),
	fc
		.tuple(fraction, fc.option(status, { freq: 5 }), fc.boolean())
		.map(([at, value, lower]) =>
			command(`set(${at}, ${value}, ${lower})`, (world) => world.set(at, value, lower)),
		),
	fraction.map((at) => command(`remove(${at})`, (world) => world.remove(at))),
	fc
		.tuple(fc.option(fc.integer({ min: 1, max: 3 })), fc.option(fc.nat(2), { freq: 4 }))
		.map(([pages, failAt]) =>
			command(`poll(${pages ?? '∞'}, ${failAt ?? '-'})`, async (world) => {
				await world.poll(pages ?? undefined, failAt ?? undefined);
			}),
		),
	fc.constant(command('poll()', async (world) => await world.poll())),
	fc.constant(command('restart()', (world) => world.restart())),
	fc.integer({ min: 0, max: 1 }).map((configuration) =>
		command(`configure(${configuration})`, async (world) => {
			world.configure(configuration);
			await world.poll();
		}),
	),
];

describe('site status changes: the promise over generated histories', () => {
	it('emits each change against what the saved memory holds, with durable cursors on and off', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.integer({ min: 1, max: 4 }),
				fc.boolean(),
				fc.nat(6),
				fc.commands(commands, { maxCommands: 30 }),
				async (pageSize, durable, initial, history) => {
					const world = new StatusWorld(pageSize, durable, initial);
					await fc.asyncModelRun(() => ({ model: {}, real: world }), history);
				},
			),
			propertyRuns(200),
		);
	});
});
