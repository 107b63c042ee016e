import { e2e } from './context.mts';

/** Calls the simulated performance service directly, as the service's own dashboard would. */
export async function performanceApi<T>(method: string, path: string): Promise<T> {
	const { performanceUrl, tokens } = e2e().sandbox;
	const response = await fetch(`${performanceUrl}${path}`, {
		method,
		headers: { authorization: `Bearer ${tokens.readWrite}` },
	});
	if (!response.ok)
		throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
	return (await response.json()) as T;
}

export interface SandboxSite {
	id: string;
	name: string;
	hostname: string;
	status: string;
}

export async function performanceSites(): Promise<SandboxSite[]> {
	return (await performanceApi<{ sites: SandboxSite[] }>('GET', '/sites')).sites;
}

export async function setSandboxOptions(options: Record<string, unknown>): Promise<void> {
	const response = await fetch(`${e2e().sandbox.controlUrl}/options`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(options),
	});
	if (!response.ok) throw new Error(`Sandbox options: ${response.status} ${await response.text()}`);
}

export interface SecuritySite {
	id: string;
	name: string;
}

/** A security service list (`/sites`, `/threats`, ...), whichever list shape the sandbox is set to answer with. */
export async function securityList<T>(path: string): Promise<T[]> {
	const { securityUrl, securityKey } = e2e().sandbox;
	const response = await fetch(`${securityUrl}${path}`, {
		headers: { authorization: `Bearer ${securityKey}` },
	});
	if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
	const body = (await response.json()) as unknown;
	const list = Array.isArray(body)
		? body
		: Object.values(body as Record<string, unknown>).find(Array.isArray);
	if (!list) throw new Error(`The security list ${path} has no array: ${JSON.stringify(body)}`);
	return list as T[];
}

export async function securitySites(): Promise<SecuritySite[]> {
	return await securityList<SecuritySite>('/sites');
}
