import type { IDataObject, INode, IPollFunctions } from 'n8n-workflow';

import { identifyRecords, type IdentifiedRecord } from './recordIds';

/** Where a page of the list is: a link or query the service gave; none for the first page. */
export interface PageRef {
	url?: string;
	qs?: IDataObject;
}

export interface ListPage {
	/** How this page was asked for; undefined for the first page. */
	ref?: PageRef;
	records: IdentifiedRecord[];
	/** The page after this one, when the service names one. */
	next?: PageRef;
}

/** What a walk over the list read, and where it stopped early for lack of time. */
export interface Walk {
	pages: ListPage[];
	/** The page the walk would have read next when the poll's time ran short. */
	cutAt?: PageRef;
}

/** Answers to a remembered link or cursor meaning the service no longer knows it. */
const STALE_LINK_STATUSES = ['400', '404', '410', '422'];

function isStaleLink(error: unknown): boolean {
	const { httpCode } = error as { httpCode?: unknown };
	return STALE_LINK_STATUSES.includes(String(httpCode));
}

/** Pages one walk reads at most; the next poll goes on from there, as when its time runs short. */
export const MAX_PAGES_PER_POLL = 1000;

function refKey(ref: PageRef | undefined): string {
	return JSON.stringify([ref?.url ?? '', ref?.qs ?? {}]);
}

/**
 * The time a poll may spend: `getPollBudgetMs()` exists from n8n 2.38 on (older n8n has none,
 * and then a poll reads on until it is done).
 */
export function pollBudgetMs(ctx: IPollFunctions): number | undefined {
	const read = (ctx as Partial<Pick<IPollFunctions, 'getPollBudgetMs'>>).getPollBudgetMs;
	if (typeof read !== 'function') return undefined;
	const budget = read.call(ctx);
	return typeof budget === 'number' && !Number.isNaN(budget) ? budget : undefined;
}

/** Fetches one page of a list: its records and the page after it. */
export type PageSource = (
	ref: PageRef | undefined,
) => Promise<{ records: IDataObject[]; next?: PageRef }>;

/** Reads pages of one list for one poll, counting the time the poll has left. */
export class ListReader {
	private readonly startedAt = Date.now();
	private slowestPageMs = 0;
	/** Pages read so far in this poll. */
	pagesRead = 0;

	constructor(
		private readonly node: INode,
		private readonly serviceName: string,
		private readonly plural: string,
		private readonly fetchPage: PageSource,
		/** Undefined: no limit. */
		private readonly budgetMs: number | undefined,
	) {}

	/**
	 * Whether another page fits in the poll's budget: the first page always does (every poll
	 * makes progress); later ones while twice the slowest page so far still fits.
	 */
	hasTimeForAnotherPage(): boolean {
		if (this.pagesRead === 0 || this.budgetMs === undefined) return true;
		return Date.now() - this.startedAt + 2 * this.slowestPageMs < this.budgetMs;
	}

	async read(ref: PageRef | undefined): Promise<ListPage> {
		const started = Date.now();
		const page = await this.fetchPage(ref);
		this.pagesRead++;
		this.slowestPageMs = Math.max(this.slowestPageMs, Date.now() - started);
		return {
			ref,
			records: identifyRecords(this.node, page.records, this.plural, this.serviceName),
			next: page.next,
		};
	}

	/**
	 * Reads from `start` (the first page when undefined), following the service's links until
	 * `stopAfter` says so, the list ends or a link repeats; or until the poll's time runs short or
	 * it has read `MAX_PAGES_PER_POLL` pages, and then says where to go on.
	 */
	async walk(
		start: PageRef | undefined,
		stopAfter: (page: ListPage) => boolean = () => false,
	): Promise<Walk> {
		const pages: ListPage[] = [];
		const visited = new Set<string>();
		let ref = start;
		for (;;) {
			const page = await this.read(ref);
			pages.push(page);
			visited.add(refKey(ref));
			const { next } = page;
			if (stopAfter(page) || !next || visited.has(refKey(next))) return { pages };
			if (!this.hasTimeForAnotherPage() || pages.length >= MAX_PAGES_PER_POLL)
				return { pages, cutAt: next };
			ref = next;
		}
	}
}

/**
 * `walk` from a page remembered from an earlier poll; when the service refuses it as stale (a
 * cursor whose record is gone, a link it no longer serves), from the first page instead.
 */
export async function walkFromRemembered(
	reader: ListReader,
	ref: PageRef | undefined,
	stopAfter?: (page: ListPage) => boolean,
): Promise<Walk & { restarted: boolean }> {
	if (ref === undefined) return { ...(await reader.walk(undefined, stopAfter)), restarted: false };
	const remembered = await reader.walk(ref, stopAfter).then(
		(walk) => ({ walk }),
		(error: unknown) => ({ error }),
	);
	if ('walk' in remembered) return { ...remembered.walk, restarted: false };
	if (!isStaleLink(remembered.error)) return await Promise.reject(remembered.error as Error);
	return { ...(await reader.walk(undefined, stopAfter)), restarted: true };
}

/** The records of a walk in list order, each once. */
export function walkRecords(walk: Walk): IdentifiedRecord[] {
	const seen = new Set<string>();
	const records: IdentifiedRecord[] = [];
	for (const page of walk.pages) {
		for (const record of page.records) {
			if (seen.has(record.id)) continue;
			seen.add(record.id);
			records.push(record);
		}
	}
	return records;
}

/** The records of the whole list, each once, read without regard to the poll's time (a manual run). */
export async function wholeList(
	reader: ListReader,
	stopAfter?: (page: ListPage) => boolean,
): Promise<IdentifiedRecord[]> {
	let walk = await reader.walk(undefined, stopAfter);
	const records = walkRecords(walk);
	while (walk.cutAt) {
		walk = await reader.walk(walk.cutAt);
		records.push(...walkRecords(walk));
	}
	return records;
}
