import { textReply, type ErrorReply, type Reply } from './reply.mts';
import type { FaultKind, FaultRoute, ServiceName } from './types.mts';

export const DEFAULT_SLOW_MS = 3000;
const KINDS: readonly FaultKind[] = [
	'status500',
	'status503',
	'malformedJson',
	'slow',
	'drop',
	'nonJson',
];
const SERVICES: readonly ServiceName[] = ['performance', 'security'];

export type FaultOutcome =
	| { kind: 'reply'; reply: Reply }
	| { kind: 'drop' }
	| { kind: 'delay'; ms: number };

interface ActiveFault {
	route: FaultRoute;
	remaining: number;
}

/** Checks a fault description that arrived as untrusted JSON (control API) or from a test. */
function parseFault(value: unknown): FaultRoute {
	const fault = (typeof value === 'object' && value !== null ? value : {}) as Record<
		string,
		unknown
	>;
	const { service, method, path, kind, times, delayMs } = fault;
	if (!SERVICES.includes(service as ServiceName))
		throw new Error(`service must be one of ${SERVICES.join(', ')}`);
	if (!KINDS.includes(kind as FaultKind))
		throw new Error(`kind must be one of ${KINDS.join(', ')}`);
	if (typeof path !== 'string' || !path.startsWith('/'))
		throw new Error("path must start with '/'");
	if (method !== undefined && typeof method !== 'string')
		throw new Error('method must be a string');
	if (times !== undefined && !(Number.isInteger(times) && (times as number) > 0))
		throw new Error('times must be a positive integer');
	if (delayMs !== undefined && !(typeof delayMs === 'number' && delayMs >= 0))
		throw new Error('delayMs must be a non-negative number');
	return {
		service: service as ServiceName,
		path,
		kind: kind as FaultKind,
		...(method === undefined ? {} : { method: method.toUpperCase() }),
		...(times === undefined ? {} : { times: times as number }),
		...(delayMs === undefined ? {} : { delayMs }),
	};
}

function pathMatches(pattern: string, path: string): boolean {
	return pattern.endsWith('*') ? path.startsWith(pattern.slice(0, -1)) : pattern === path;
}

export class FaultRegistry {
	#active: ActiveFault[] = [];

	/** Validates like parseFault, so it also takes JSON from the control API. */
	add(value: unknown): FaultRoute {
		const route = parseFault(value);
		this.#active.push({ route, remaining: route.times ?? Infinity });
		return route;
	}

	clear(): void {
		this.#active = [];
	}

	list(): Array<FaultRoute & { remaining: number | null }> {
		return this.#active.map(({ route, remaining }) => ({
			...route,
			remaining: Number.isFinite(remaining) ? remaining : null,
		}));
	}

	/** Finds the first fault for this request and uses up one of its `times`. */
	take(service: ServiceName, method: string, path: string): FaultRoute | undefined {
		const index = this.#active.findIndex(
			({ route }) =>
				route.service === service &&
				(route.method === undefined || route.method === method.toUpperCase()) &&
				pathMatches(route.path, path),
		);
		if (index < 0) return undefined;
		const active = this.#active[index];
		active.remaining -= 1;
		if (active.remaining <= 0) this.#active.splice(index, 1);
		return active.route;
	}
}

export function faultOutcome(route: FaultRoute, errorReply: ErrorReply): FaultOutcome {
	switch (route.kind) {
		case 'status500':
			return {
				kind: 'reply',
				reply: errorReply(500, 'internal_error', 'Internal server error (injected fault)'),
			};
		case 'status503':
			return {
				kind: 'reply',
				reply: errorReply(503, 'service_unavailable', 'Service unavailable (injected fault)'),
			};
		case 'malformedJson': {
			const truncated = '{"sites":[{"id":"site_1","name":"Acme Sh';
			return { kind: 'reply', reply: textReply(200, truncated, 'application/json; charset=utf-8') };
		}
		case 'nonJson': {
			const page =
				'<!DOCTYPE html><html><head><title>Maintenance</title></head><body><h1>Back soon</h1></body></html>';
			return { kind: 'reply', reply: textReply(200, page, 'text/html; charset=utf-8') };
		}
		case 'drop':
			return { kind: 'drop' };
		case 'slow':
			return { kind: 'delay', ms: route.delayMs ?? DEFAULT_SLOW_MS };
	}
}
