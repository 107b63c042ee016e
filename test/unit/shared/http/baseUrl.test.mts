import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
	BASE_URL_EXPRESSION,
	MAX_REDIRECTS,
	checkFollowedUrl,
	checkRedirect,
	joinUrl,
	trimBaseUrl,
} from '../../../../nodes/shared/http/baseUrl.ts';
import { propertyRuns } from '../../../support/harness/propertyRuns.mts';

const scheme = fc.constantFrom('http:', 'https:');
const host = fc.constantFrom('api.example.com', '127.0.0.1', 'security.example.org');
const port = fc.constantFrom('', ':8443', ':3000');
const basePath = fc.constantFrom('', '/v1', '/api/v2');
const segment = fc.stringMatching(/^[a-zA-Z0-9_-]{1,8}$/).filter((name) => name !== 'v1');
const segments = fc
	.array(segment, { minLength: 0, maxLength: 3 })
	.map((parts) => parts.map((part) => `/${part}`).join(''));
const query = fc.constantFrom('', '?page=2', '?cursor=abc&limit=10');

const base = fc.record({ scheme, host, port, path: basePath }).map((parts) => ({
	...parts,
	origin: `${parts.scheme}//${parts.host}${parts.port}`,
	url: `${parts.scheme}//${parts.host}${parts.port}${parts.path}`,
}));

function refused(link: string, baseUrl: string) {
	const result = checkFollowedUrl(link, baseUrl);
	expect(result.url, `${link} against ${baseUrl}`).toBeUndefined();
	return result.refused!;
}

describe('checkFollowedUrl: the origin rule', () => {
	it('accepts any absolute URL at or below the base path, with any trailing slashes on the base', () => {
		fc.assert(
			fc.property(base, segments, query, fc.constantFrom('', '/', '//'), (b, below, q, slashes) => {
				const link = `${b.url}${below}${q}`;
				expect(checkFollowedUrl(link, `${b.url}${slashes}`)).toEqual({ url: new URL(link).href });
			}),
		);
	});

	it('reads a relative link against the base URL and keeps it when it stays below', () => {
		fc.assert(
			fc.property(base, segment, query, (b, name, q) => {
				expect(checkFollowedUrl(`${name}${q}`, b.url)).toEqual({ url: `${b.url}/${name}${q}` });
				expect(checkFollowedUrl(`${b.path}/${name}`, b.url)).toEqual({
					url: `${b.origin}${b.path}/${name}`,
				});
			}),
		);
	});

	it('refuses another host, also written protocol-relative or hidden behind user info', () => {
		fc.assert(
			fc.property(base, segments, (b, below) => {
				for (const link of [
					`${b.scheme}//evil.example${b.path}${below}`,
					`//evil.example${b.path}${below}`,
					`${b.scheme}//${b.host}${b.port}@evil.example${b.path}${below}`,
					`${b.scheme}//${b.host}.evil.example${b.path}${below}`,
				]) {
					const result = refused(link, b.url);
					expect(result.reason).toBe('it is on another scheme, host or port');
					expect(result.shownUrl).toBe(new URL(link, `${b.url}/`).origin);
					expect(result.shownUrl).not.toBe(b.origin);
				}
			}),
		);
	});

	it('refuses user info on the base URL host itself', () => {
		fc.assert(
			fc.property(base, fc.constantFrom('user@', 'user:secret@', ':pw@'), (b, userinfo) => {
				const result = refused(`${b.scheme}//${userinfo}${b.host}${b.port}${b.path}/sites`, b.url);
				expect(result).toEqual({
					shownUrl: b.origin,
					reason: 'it carries a user name or password',
				});
				expect(result.shownUrl).not.toContain('secret');
			}),
		);
	});

	it('refuses another port and another scheme', () => {
		fc.assert(
			fc.property(base, segments, (b, below) => {
				const otherPort = ':9999';
				const otherScheme = b.scheme === 'https:' ? 'http:' : 'https:';
				for (const link of [
					`${b.scheme}//${b.host}${otherPort}${b.path}${below}`,
					`${otherScheme}//${b.host}${b.port}${b.path}${below}`,
					`ftp://${b.host}${b.path}${below}`,
					`file://${b.host}${b.path}${below}`,
				]) {
					expect(refused(link, b.url).reason).toBe('it is on another scheme, host or port');
				}
			}),
		);
	});

	it('refuses paths that leave the base path: `..`, encoded dots, encoded slashes, a longer prefix', () => {
		fc.assert(
			fc.property(
				base.filter((b) => b.path !== ''),
				segment,
				(b, name) => {
					for (const link of [
						`${b.url}/../${name}`,
						`${b.url}/%2e%2e/${name}`,
						`${b.url}/%2E%2E/${name}`,
						`${b.url}/.%2e/${name}`,
						`${b.url}/%2e%2e%2f${name}`,
						`${b.url}%2f..%2f${name}`,
						`${b.url}/..%5c${name}`,
						`${b.url}evil/${name}`,
						`${b.origin}/${name}`,
						`../${name}`,
					]) {
						expect(refused(link, b.url).reason).toBe(`its path is not below ${b.path}`);
					}
				},
			),
		);
	});

	it('refuses an encoded dot segment even where the base is the whole host', () => {
		expect(refused('https://api.example.com/a/%2e%2e%2fb', 'https://api.example.com').reason).toBe(
			'its path is not below /',
		);
		expect(
			checkFollowedUrl('https://api.example.com/a/%2e%2e/b', 'https://api.example.com'),
		).toEqual({
			url: 'https://api.example.com/b',
		});
	});

	it('anything it accepts is on the base origin, without user info, below the base path', () => {
		const piece = fc.constantFrom(
			'//',
			'/',
			'..',
			'.',
			'%2e',
			'%2f',
			'%5c',
			'\\',
			'@',
			':',
			'?',
			'#',
			'evil.example',
			'api.example.com',
			'v1',
			'v1evil',
			'http:',
			'https:',
			'8080',
			'user',
		);
		fc.assert(
			fc.property(base, fc.array(piece, { maxLength: 10 }), (b, pieces) => {
				const result = checkFollowedUrl(pieces.join(''), b.url);
				if (result.refused) return;
				const url = new URL(result.url);
				expect(`${url.protocol}//${url.host}`).toBe(b.origin);
				expect(url.username + url.password).toBe('');
				expect(url.pathname === b.path || url.pathname.startsWith(`${b.path}/`)).toBe(true);
				expect(decodeURIComponent(url.pathname).split('/')).not.toContain('..');
			}),
			{ numRuns: 2000 },
		);
	});

	it('refuses everything when the credential holds no usable base URL', () => {
		expect(refused('https://api.example.com/v1/sites', '').reason).toBe(
			'the credential has no valid http(s) base URL',
		);
		expect(refused('https://api.example.com/v1/sites', 'api.example.com/v1').reason).toBe(
			'the credential has no valid http(s) base URL',
		);
		expect(refused('not a url at all', 'http://[::1').reason).toBe(
			'the credential has no valid http(s) base URL',
		);
	});
});

describe('base URL trimming', () => {
	it('trims blanks and trailing slashes, and joins paths without a double slash', () => {
		expect(trimBaseUrl('  https://api.example.com/v1///  ')).toBe('https://api.example.com/v1');
		expect(trimBaseUrl(undefined)).toBe('');
		expect(joinUrl('https://api.example.com/v1/', '/sites')).toBe(
			'https://api.example.com/v1/sites',
		);
		expect(joinUrl('https://api.example.com/v1', 'sites')).toBe('https://api.example.com/v1/sites');
	});

	it("the credentials' test expression applies the same rule", () => {
		const body = /^=\{\{\$credentials\.baseUrl(.*)\}\}$/.exec(BASE_URL_EXPRESSION)?.[1];
		expect(body).toBe('.trim().replace(/\\/+$/, "")');
		fc.assert(
			fc.property(fc.string(), (value) => {
				const expression = new Function('value', `return value${body}`) as (
					value: string,
				) => string;
				expect(expression(value)).toBe(trimBaseUrl(value));
			}),
		);
	});
});

describe('checkRedirect: the redirect rule', () => {
	const BASE = 'http://api.example.com:8080/v1';
	const from = `${BASE}/sites`;
	const redirect = (status: number, method: string, location: string | undefined, hops = 0) =>
		checkRedirect({ status, method, location, from, hops }, BASE);

	it('follows a read to a Location below the base URL, relative ones read against the URL that answered', () => {
		expect(redirect(301, 'GET', 'moved?page=1')).toEqual({ url: `${BASE}/moved?page=1` });
		expect(redirect(308, 'HEAD', '/v1/b')).toEqual({ url: `${BASE}/b` });
		expect(redirect(302, 'GET', `${BASE}/c#top`)).toEqual({ url: `${BASE}/c` });
	});

	it.each([
		[
			307,
			'GET',
			'https://api.example.com:8080/v1/sites',
			'https://api.example.com:8080',
			/another scheme/,
		],
		[302, 'GET', 'http://other.example/steal', 'http://other.example', /another scheme/],
		[302, 'GET', '//other.example/v1/x', 'http://other.example', /another scheme/],
		[
			302,
			'GET',
			'http://u:p@api.example.com:8080/v1/x',
			'http://api.example.com:8080',
			/user name/,
		],
		[302, 'GET', '/admin', 'http://api.example.com:8080/admin', /not below \/v1/],
		[302, 'GET', 'http://[::1', 'http://[::1', /not a valid URL/],
		[301, 'POST', `${BASE}/sites/`, `${BASE}/sites/`, /POST is never sent again/],
		[303, 'PATCH', 'moved', `${BASE}/moved`, /PATCH is never sent again/],
		[307, 'DELETE', 'moved', `${BASE}/moved`, /DELETE is never sent again/],
		[304, 'GET', 'moved', '', /HTTP 304 without a Location/],
		[300, 'GET', 'moved', '', /HTTP 300/],
		[302, 'GET', undefined, '', /without a Location/],
		[302, 'GET', '  ', '', /without a Location/],
	])('refuses %i %s to %s', (status, method, location, shownUrl, reason) => {
		const result = redirect(status, method, location);
		expect(result.url).toBeUndefined();
		expect(result.refused?.shownUrl).toBe(shownUrl);
		expect(result.refused?.reason).toMatch(reason);
	});

	it(`ends a loop after ${MAX_REDIRECTS} redirects in a row`, () => {
		expect(redirect(302, 'GET', 'sites', MAX_REDIRECTS - 1).url).toBe(from);
		expect(redirect(302, 'GET', 'sites', MAX_REDIRECTS).refused?.reason).toMatch(/more than 5/);
	});

	const status = fc.integer({ min: 300, max: 399 });
	const method = fc.constantFrom('GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE');
	const location = fc.oneof(
		fc.constantFrom(
			'moved',
			'/v1/moved?x=1',
			'/elsewhere',
			'../x',
			'%2e%2e/admin',
			'//other.example/v1',
			'https://api.example.com:8080/v1/x',
			'http://api.example.com/v1/x',
			'http://u@api.example.com:8080/v1/x',
			'http://other.example:8080/v1/x',
			'javascript:alert(1)',
			'http://[::1',
			'',
		),
		fc.webUrl({ withQueryParameters: true, withFragments: true }),
		fc.string({ maxLength: 30 }),
	);

	it('follows only a read, on the base URL origin and below its path, within the hop limit', () => {
		fc.assert(
			fc.property(
				status,
				method,
				fc.option(location, { nil: undefined }),
				fc.nat(8),
				(s, m, l, hops) => {
					const result = redirect(s, m, l, hops);
					if (result.url === undefined) {
						expect(result.refused.reason).not.toBe('');
						expect(result.refused.shownUrl).not.toMatch(/\/\/[^/]*@/);
						return;
					}
					const url = new URL(result.url);
					expect([301, 302, 303, 307, 308]).toContain(s);
					expect(['GET', 'HEAD']).toContain(m);
					expect(hops).toBeLessThan(MAX_REDIRECTS);
					expect(url.origin).toBe('http://api.example.com:8080');
					expect(url.username + url.password).toBe('');
					expect(url.pathname === '/v1' || url.pathname.startsWith('/v1/')).toBe(true);
				},
			),
			propertyRuns(500),
		);
	});
});
