/** The security service's plans and their published limits. */

/** Requests per minute of each plan; `undefined`: unlimited. */
export const SECURITY_PLAN_LIMITS = {
	standard: 100,
	agency: 500,
	enterprise: undefined,
} as const satisfies Record<string, number | undefined>;

export type SecurityPlan = keyof typeof SECURITY_PLAN_LIMITS;

/** The plan a credential without one counts as: the strictest. */
export const DEFAULT_SECURITY_PLAN: SecurityPlan = 'standard';

export const SECURITY_PLANS = Object.keys(SECURITY_PLAN_LIMITS) as SecurityPlan[];

/** How a plan and its limit are shown, e.g. "Agency (500 Requests per Minute)". */
export function planDisplayName(plan: SecurityPlan): string {
	const limit: number | undefined = SECURITY_PLAN_LIMITS[plan];
	const name = plan.charAt(0).toUpperCase() + plan.slice(1);
	return `${name} (${limit === undefined ? 'Unlimited' : `${limit} Requests per Minute`})`;
}
