import { PERFORMANCE_SCOPES, type Scope } from './serviceValues.mts';

export type { Scope };
const { sitesRead, auditsRead, sitesWrite } = PERFORMANCE_SCOPES;

export const ORGANISATION_ID = 'org_1';

export const DEMO_TOKENS = {
	readOnly: 'perf_ro_4f9a1c2e7b3d48a6',
	readWrite: 'perf_rw_8c2d5e1f9a7b4c30',
	sitesWrite: 'perf_sw_2b7e9d4a6c1f8e53',
	noScopes: 'perf_ns_6d3a8f2c5e9b1d74',
} as const;

const TOKEN_SCOPES: Record<string, readonly Scope[]> = {
	[DEMO_TOKENS.readOnly]: [sitesRead, auditsRead],
	[DEMO_TOKENS.readWrite]: Object.values(PERFORMANCE_SCOPES),
	[DEMO_TOKENS.sitesWrite]: [sitesRead, sitesWrite],
	[DEMO_TOKENS.noScopes]: [],
};

export const SECURITY_KEY = 'sec_key_9e4b2a7c1d8f5e36';
export const SIGNING_SECRET = 'whsec_5a1e8c3f7b2d9a64e0c1';

export type Credential =
	| { kind: 'missing' }
	| { kind: 'invalid' }
	| { kind: 'bearer'; token: string };

/** A header that is present but not `Bearer <token>` counts as invalid, not missing. */
export function readBearer(headers: Record<string, string>): Credential {
	const header = headers['authorization'];
	if (header === undefined) return { kind: 'missing' };
	const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
	return match ? { kind: 'bearer', token: match[1] } : { kind: 'invalid' };
}

export function scopesOf(token: string): readonly Scope[] | undefined {
	return TOKEN_SCOPES[token];
}
