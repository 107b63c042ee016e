import { withHeaders } from './reply.mts';
import type { ErrorReply, Reply } from './reply.mts';

/**
 * One line of a route table. `path` is below the mount (`/sites/:id`); a `:name` segment matches
 * one segment of letters, digits, `_` and `-` (so an encoded `%2F` in an id matches nothing).
 */
export interface Route {
	method: string;
	path: string;
}

/** The values of a path's `:name` segments, by name. */
export type PathParams = Record<string, string>;

export type RouteMatch<R extends Route> =
	| { route: R; params: PathParams }
	/** Some route has this path, none this method: the methods it has, in table order. */
	| { allow: string[] }
	| undefined;

const PARAM_VALUE = /^[A-Za-z0-9_-]+$/;

function matchPath(pattern: string, path: string): PathParams | undefined {
	const wanted = pattern.split('/');
	const given = path.split('/');
	if (wanted.length !== given.length) return undefined;
	const params: PathParams = {};
	for (const [index, segment] of wanted.entries()) {
		if (!segment.startsWith(':')) {
			if (segment !== given[index]) return undefined;
		} else if (PARAM_VALUE.test(given[index])) {
			params[segment.slice(1)] = given[index];
		} else {
			return undefined;
		}
	}
	return params;
}

export function matchRoute<R extends Route>(
	routes: readonly R[],
	method: string,
	path: string,
): RouteMatch<R> {
	const onPath = routes.flatMap((route) => {
		const params = matchPath(route.path, path);
		return params ? [{ route, params }] : [];
	});
	if (onPath.length === 0) return undefined;
	return (
		onPath.find(({ route }) => route.method === method) ?? {
			allow: onPath.map(({ route }) => route.method),
		}
	);
}

/** The answer to a call no route takes: 404, or 405 with `Allow` where the path has other methods. */
export function refusal(
	match: { allow: string[] } | undefined,
	{ method, path }: { method: string; path: string },
	fail: ErrorReply,
): Reply {
	if (!match) return fail(404, 'not_found', `No route ${method} ${path}`);
	return withHeaders(fail(405, 'method_not_allowed', `${method} is not allowed on ${path}`), {
		allow: match.allow.join(', '),
	});
}
