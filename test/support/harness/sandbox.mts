import { createServer } from 'node:net';

import { afterAll, beforeAll, beforeEach } from 'vitest';

import {
	sandboxCredentials,
	startSandbox,
	type RecordedRequest,
	type Sandbox,
	type SandboxOptions,
} from '../sandbox/index.mts';
import { forgetPacers } from './pacers.mts';

/**
 * Starts one quiet sandbox before the tests of the calling file, resets it (seeds, options,
 * records, limits, faults, endpoints) before each test and closes it after the last one.
 * With the service reset, the nodes' process-wide request pacing forgets what it learned too.
 * The returned handle forwards to that sandbox; it can be used inside tests and hooks only.
 */
export function withSandbox(options: SandboxOptions = {}): Sandbox {
	let current: Sandbox | undefined;
	beforeAll(async () => {
		current = await startSandbox({ quiet: true, ...options });
	});
	beforeEach(() => {
		current?.reset();
		forgetPacers();
	});
	afterAll(async () => {
		await current?.close();
		current = undefined;
	});
	return new Proxy({} as Sandbox, {
		get(_target, key) {
			if (current) return Reflect.get(current, key) as unknown;
			// Promise and inspection probes must not throw.
			if (typeof key === 'symbol' || key === 'then') return undefined;
			throw new Error(
				`sandbox.${key} was read outside a test: the sandbox runs from beforeAll to afterAll`,
			);
		},
	});
}

export { sandboxCredentials };

/** The requests one service received, in order. */
export function requestsTo(
	sandbox: Sandbox,
	service: RecordedRequest['service'],
): RecordedRequest[] {
	return sandbox.requests.filter((request) => request.service === service);
}

export interface ServiceCall {
	method: string;
	path: string;
	query: Record<string, string>;
	/** The Authorization header as received. */
	auth?: string;
}

/** The requests one service received, as method, path, query and Authorization header. */
export function callsTo(sandbox: Sandbox, service: RecordedRequest['service']): ServiceCall[] {
	return requestsTo(sandbox, service).map(({ method, path, query, headers }) => ({
		method,
		path,
		query,
		auth: headers.authorization,
	}));
}

/**
 * What a service of the sandbox answers to a GET below its base URL, read directly with the
 * demo credentials (performance: the read-write token); the read is left out of the recorded requests.
 */
export async function serviceAnswer(
	sandbox: Sandbox,
	service: RecordedRequest['service'],
	path: string,
): Promise<unknown> {
	const credentials = sandboxCredentials(sandbox);
	const [baseUrl, secret] =
		service === 'performance'
			? [credentials.performanceServiceApi.baseUrl, credentials.performanceServiceApi.apiToken]
			: [credentials.securityServiceApi.baseUrl, credentials.securityServiceApi.apiKey];
	const recorded = sandbox.requests.length;
	const response = await fetch(`${baseUrl}${path}`, {
		headers: { authorization: `Bearer ${secret}` },
	});
	const body: unknown = await response.json();
	sandbox.requests.splice(recorded);
	return body;
}

/** A local port nothing listens on, for "service unreachable" cases. */
export async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}
