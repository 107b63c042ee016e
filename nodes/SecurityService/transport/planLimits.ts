/**
 * What the security service's API defines. Kept free of imports so that the sandbox
 * (test/support/sandbox, run by Node's type stripping) imports the same values as the nodes.
 */

/** Requests per minute of each plan; `undefined`: unlimited. */
export const SECURITY_PLAN_LIMITS = {
	standard: 100,
	agency: 500,
	enterprise: undefined,
} as const satisfies Record<string, number | undefined>;
