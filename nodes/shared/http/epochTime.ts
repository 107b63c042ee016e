/**
 * The services do not publish whether their epoch timestamps count seconds, milliseconds,
 * microseconds or nanoseconds; they are told apart by magnitude. 10^10 as seconds is the year
 * 2286, as milliseconds April 1970. Microseconds and nanoseconds since 2001 are above 10^15 and
 * 10^18, which as milliseconds and microseconds are the year 33658.
 */
export const EPOCH_MILLISECONDS_ABOVE = 10_000_000_000;
const EPOCH_MICROSECONDS_ABOVE = 1e15;
const EPOCH_NANOSECONDS_ABOVE = 1e18;

/** An epoch timestamp of unknown unit (seconds to nanoseconds) in milliseconds. */
export function epochToMilliseconds(value: number): number {
	if (value > EPOCH_NANOSECONDS_ABOVE) return value / 1_000_000;
	if (value > EPOCH_MICROSECONDS_ABOVE) return value / 1000;
	return value > EPOCH_MILLISECONDS_ABOVE ? value : value * 1000;
}
