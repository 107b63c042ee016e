/**
 * The services do not publish whether their epoch timestamps count seconds or milliseconds.
 * 10^10 tells them apart: as seconds it is the year 2286, as milliseconds April 1970.
 */
export const EPOCH_MILLISECONDS_ABOVE = 10_000_000_000;

/** An epoch timestamp of unknown unit (seconds or milliseconds) in milliseconds. */
export function epochToMilliseconds(value: number): number {
	return value > EPOCH_MILLISECONDS_ABOVE ? value : value * 1000;
}
