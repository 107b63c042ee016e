import { randomBytes } from 'node:crypto';

/** Sequential ids per prefix (`site_1`, `thr_27`, ...). */
export class IdSource {
	#counters = new Map<string, number>();
	#floor = 0;

	next(prefix: string): string {
		const value = Math.max(this.#counters.get(prefix) ?? 0, this.#floor) + 1;
		this.#counters.set(prefix, value);
		return `${prefix}_${value}`;
	}

	/** Ids handed out from now on are numbered above `floor`, whatever their prefix. */
	raiseTo(floor: number): void {
		this.#floor = Math.max(this.#floor, floor);
	}
}

/** Event ids are random so that receivers which de-duplicate by id keep working across resets. */
export function randomEventId(): string {
	return `evt_${randomBytes(12).toString('hex')}`;
}
