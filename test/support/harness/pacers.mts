import { pacingKey, processPacers } from '../../../nodes/shared/pacing/pacers.ts';
import { RequestPacer } from '../../../nodes/shared/pacing/requestPacer.ts';
import type { Sandbox } from '../sandbox/index.mts';

/** Forgets what every pacer of this process learned, as after a restart: the sandbox was reset. */
export function forgetPacers(): void {
	processPacers.clear();
}

/**
 * Gives the sandbox's security key a pacer whose plan minute lasts `minuteMs`, for a sandbox
 * whose clock runs faster (its time scale). Call it after `forgetPacers`.
 */
export function scaleSecurityPlanMinute(sandbox: Sandbox, minuteMs: number): void {
	const credential = {
		credentialType: 'securityServiceApi',
		baseUrl: sandbox.securityUrl,
		secret: sandbox.securityKey,
	};
	processPacers.set(pacingKey(credential), new RequestPacer(minuteMs));
}
