import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
	BASE_URL_EXPRESSION,
	checkFollowedUrl,
	joinUrl,
	trimBaseUrl,
} from '../../../../nodes/shared/http/baseUrl.ts';

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
