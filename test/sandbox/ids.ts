import { randomBytes } from 'node:crypto';

/** Sequential ids per prefix (`site_1`, `thr_27`, ...). */
export class IdSource {
	#counters = new Map<string, number>();

	next(prefix: string): string {
		const value = (this.#counters.get(prefix) ?? 0) + 1;
		this.#counters.set(prefix, value);
		return `${prefix}_${value}`;
	}
}

/** Event ids are random so that receivers which de-duplicate by id keep working across resets. */
export function randomEventId(): string {
	return `evt_${randomBytes(12).toString('hex')}`;
}
