import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import type { ServiceContext, ServiceProfile } from './serviceTypes';

/**
 * The credentials' base URL without surrounding blanks and trailing slashes. The credentials'
 * test requests use `BASE_URL_EXPRESSION`, the same rule as an n8n expression.
 */
export function trimBaseUrl(value: unknown): string {
	return typeof value === 'string' ? value.trim().replace(/\/+$/, '') : '';
}

/** `trimBaseUrl` as an n8n expression, for a credential's `test.request.baseURL`. */
export const BASE_URL_EXPRESSION = '={{$credentials.baseUrl.trim().replace(/\\/+$/, "")}}';

/** A path below a (trimmed) base URL: `https://api.example.com/v1` + `/sites`. */
export function joinUrl(baseUrl: string, path: string): string {
	return `${trimBaseUrl(baseUrl)}/${path.replace(/^\/+/, '')}`;
}

const credentialReads = new WeakMap<ServiceContext, Promise<ICredentialDataDecryptedObject>>();

/**
 * The credential, read once per n8n context (one node run, one list search, one poll) and not
 * on every request: in n8n each read loads and decrypts it from the database. Each node has one
 * credential, the profile's.
 */
export async function readCredentials(
	ctx: ServiceContext,
	profile: ServiceProfile,
): Promise<ICredentialDataDecryptedObject> {
	let credentials = credentialReads.get(ctx);
	if (!credentials) {
		credentials = ctx.getCredentials(profile.credentialType).then((data) => {
			credentialsRead.set(ctx, data);
			return data;
		});
		credentialReads.set(ctx, credentials);
	}
	return await credentials;
}

const credentialsRead = new WeakMap<ServiceContext, ICredentialDataDecryptedObject>();

/** Fields of either credential that are no secret. */
const NOT_SECRET = ['baseUrl', 'plan'];

/**
 * The secrets (token, key, signing secrets) of the credential `ctx` has read, so that a message
 * never repeats one that a service echoed.
 */
export function secretsReadBy(ctx: ServiceContext): string[] {
	return Object.entries(credentialsRead.get(ctx) ?? {})
		.filter(([field, value]) => !NOT_SECRET.includes(field) && typeof value === 'string')
		.map(([, value]) => (value as string).trim())
		.filter((value) => value.length >= 6);
}

/**
 * The credential's trimmed base URL, read once per n8n context: every request and every
 * followed link of that run is checked against it.
 */
export async function readBaseUrl(ctx: ServiceContext, profile: ServiceProfile): Promise<string> {
	return trimBaseUrl((await readCredentials(ctx, profile)).baseUrl);
}

/** Why a followed URL is not sent: `shownUrl` names where it points, never with user info. */
export interface RefusedUrl {
	shownUrl: string;
	reason: string;
}

type FollowedUrl = { url: string; refused?: undefined } | { url?: undefined; refused: RefusedUrl };

/** The URL, read against `base` when given; undefined when it is not one. */
export function parseUrl(value: string, base?: string): URL | undefined {
	try {
		return new URL(value, base);
	} catch {
		return undefined;
	}
}

/** A path whose decoded segments hold `.` or `..` (e.g. `%2e%2e`), or a backslash, could leave the base path on a server that decodes it. */
function hidesDotSegments(pathname: string): boolean {
	let decoded: string;
	try {
		decoded = decodeURIComponent(pathname);
	} catch {
		return true;
	}
	return (
		decoded.includes('\\') ||
		decoded.split('/').some((segment) => segment === '.' || segment === '..')
	);
}

/**
 * The origin rule: a URL this package follows that did not come from the credential (a `next`
 * link, a `Link` header, a picker's page token) is sent only when it has the base URL's scheme,
 * host and port, no user info, and a path at or below the base URL's path. A relative URL is
 * read against the base URL. Returns the normalised URL to send, or why it is refused.
 */
export function checkFollowedUrl(link: string, baseUrl: string): FollowedUrl {
	const refuse = (shownUrl: string, reason: string): FollowedUrl => ({
		refused: { shownUrl, reason },
	});
	const base = parseUrl(trimBaseUrl(baseUrl));
	if (!base || !/^https?:$/.test(base.protocol))
		return refuse(link.slice(0, 100), 'the credential has no valid http(s) base URL');
	const url = parseUrl(link, `${trimBaseUrl(base.href)}/`);
	if (!url) return refuse(link.slice(0, 100), 'it is not a valid URL');
	const origin = `${url.protocol}//${url.host}`;
	if (url.protocol !== base.protocol || url.host !== base.host)
		return refuse(origin, 'it is on another scheme, host or port');
	if (url.username !== '' || url.password !== '')
		return refuse(origin, 'it carries a user name or password');
	const basePath = base.pathname.replace(/\/+$/, '');
	const belowBase = url.pathname === basePath || url.pathname.startsWith(`${basePath}/`);
	if (!belowBase || hidesDotSegments(url.pathname))
		return refuse(`${origin}${url.pathname}`, `its path is not below ${basePath || '/'}`);
	url.hash = '';
	return { url: url.href };
}

/** How many redirects in a row a read follows. */
export const MAX_REDIRECTS = 5;

/** The redirects that name an address to go to; 300, 304, 305 and 306 do not. */
const FOLLOWED_REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A 3xx answer to `method` at `from`, after `hops` redirects already followed in a row. */
export interface Redirect {
	status: number;
	method: string;
	location: string | undefined;
	from: string;
	hops: number;
}

/**
 * The redirect rule: a redirect is followed only for a read (GET, HEAD), to a `Location` the
 * origin rule allows (read against the URL that answered), at most `MAX_REDIRECTS` in a row (so a
 * loop ends). Returns the URL to send next, or why it is refused.
 */
export function checkRedirect(redirect: Redirect, baseUrl: string): FollowedUrl {
	const { status, method, location, from, hops } = redirect;
	const refuse = (shownUrl: string, reason: string): FollowedUrl => ({
		refused: { shownUrl, reason },
	});
	if (!FOLLOWED_REDIRECTS.has(status) || location === undefined || location.trim() === '')
		return refuse('', `HTTP ${status} without a Location names no address to go to`);
	const url = parseUrl(location.trim(), from);
	if (!url) return refuse(location.slice(0, 100), 'its Location is not a valid URL');
	const followed = checkFollowedUrl(url.href, baseUrl);
	if (followed.url === undefined) return followed;
	const shown = `${url.protocol}//${url.host}${url.pathname}`;
	if (method !== 'GET' && method !== 'HEAD')
		return refuse(
			shown,
			`a ${method} is never sent again elsewhere (the service may or may not have carried it out; check before running it again)`,
		);
	if (hops >= MAX_REDIRECTS)
		return refuse(shown, `it is more than ${MAX_REDIRECTS} redirects in a row (a loop?)`);
	return followed;
}
