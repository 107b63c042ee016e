/**
 * Memory of accepted deliveries, so that a replayed one (same timestamp and signature) is
 * acknowledged without starting the workflow twice.
 *
 * Where it lives and its limits:
 * - In the memory of the n8n process that received the delivery (module state of this file,
 *   shared by every workflow using the trigger in that process).
 * - Lost when n8n restarts. Not shared between processes: in queue mode with several webhook
 *   processes, or in multi-main, a replay that reaches another process is not recognised.
 * - An entry is kept until its timestamp falls out of the tolerance window (after that the
 *   delivery is rejected as too old anyway). With a tolerance of 0 entries do not expire.
 * - At most MAX_ENTRIES entries in all; beyond that the oldest are forgotten first.
 */

export const MAX_ENTRIES = 10_000;

const expiries = new Map<string, number>();

function forgetExpired(nowMs: number): void {
	for (const [key, expiresAt] of expiries) {
		if (expiresAt > nowMs) continue;
		expiries.delete(key);
	}
}

export interface DeliveryKey {
	/** Workflow and node the delivery was addressed to: a delivery may reach several workflows. */
	workflowId: string;
	nodeId: string;
	timestamp: string;
	signature: string;
}

/**
 * Records an accepted delivery and returns `true`, or returns `false` when the same delivery
 * was recorded before and has not expired.
 */
export function rememberDelivery(
	key: DeliveryKey,
	timestampMs: number,
	toleranceSeconds: number,
	nowMs: number,
): boolean {
	const id = [key.workflowId, key.nodeId, key.timestamp, key.signature].join('\n');
	const known = expiries.get(id);
	if (known !== undefined && known > nowMs) return false;

	forgetExpired(nowMs);
	while (expiries.size >= MAX_ENTRIES) {
		const oldest = expiries.keys().next().value;
		if (oldest === undefined) break;
		expiries.delete(oldest);
	}
	const expiresAt = toleranceSeconds > 0 ? timestampMs + toleranceSeconds * 1000 : Number.POSITIVE_INFINITY;
	expiries.set(id, expiresAt);
	return true;
}

/** Number of remembered deliveries (for tests). */
export function rememberedCount(): number {
	return expiries.size;
}

/** Forgets every delivery (for tests). */
export function forgetAllDeliveries(): void {
	expiries.clear();
}
