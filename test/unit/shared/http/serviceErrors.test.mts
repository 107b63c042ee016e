import { describe, expect, it } from 'vitest';

import { PERFORMANCE_SERVICE } from '../../../../nodes/PerformanceService/transport/index.ts';
import { SECURITY_SERVICE } from '../../../../nodes/SecurityService/transport/index.ts';
import {
	describeFailure,
	describeUnreachable,
	describeUnreadable,
} from '../../../../nodes/shared/http/serviceErrors.ts';
import { describeResetTime } from '../../../../nodes/shared/http/rateLimitMessages.ts';
import type { ServiceRequest } from '../../../../nodes/shared/http/serviceTypes.ts';

const NOW = Date.parse('2025-03-01T12:00:00.000Z');
const getSite: ServiceRequest = {
	method: 'GET',
	path: '/sites/site_9',
	scope: 'sites:read',
	addressedRecord: 'site "site_9"',
};
const reoptimize: ServiceRequest = {
	method: 'POST',
	path: '/sites/site_1/reoptimize',
	scope: 'audits:write',
	addressedRecord: 'site "site_1"',
	rateLimitsText: '20 reoptimizations per hour for each site',
};

const envelope = (code: string, message: string, extra: object = {}): string =>
	JSON.stringify({ error: { code, message, ...extra } });

function describe_(status: number, body: string, request: ServiceRequest = getSite) {
	return describeFailure(PERFORMANCE_SERVICE, status, body, {}, request, undefined, NOW);
}

describe('describeFailure names the service code and the fix', () => {
	it('auth_required: enter the token', () => {
		const failure = describe_(401, envelope('auth_required', 'Send the header'));
		expect(failure.message).toBe('The Performance Service received no credentials [auth_required]');
		expect(failure.description).toMatch(
			/Open the "Performance Service API" credential and enter the token/,
		);
	});

	it('auth_invalid: check the token', () => {
		const failure = describe_(401, envelope('auth_invalid', 'The bearer token is not valid'));
		expect(failure.message).toBe(
			'The Performance Service rejected the token [auth_invalid]: The bearer token is not valid',
		);
		expect(failure.description).toMatch(
			/Check the token in the "Performance Service API" credential/,
		);
		expect(failure.httpCode).toBe('401');
	});

	it('a 401 without a body still counts as auth_invalid', () => {
		expect(describe_(401, '').message).toBe(
			'The Performance Service rejected the token [auth_invalid]',
		);
	});

	it('missing scope: names the scope the service asked for', () => {
		const body = envelope('insufficient_scope', 'This operation requires the scope audits:write', {
			required_scope: 'audits:write',
		});
		const failure = describe_(403, body, { ...reoptimize, scope: undefined });
		expect(failure.message).toBe(
			'The token lacks permission (audits:write) [insufficient_scope]: This operation requires the scope audits:write',
		);
		expect(failure.description).toMatch(/The token needs the scope "audits:write"/);
	});

	it('missing scope: falls back to the scope the operation needs', () => {
		const failure = describe_(403, envelope('forbidden', 'Nope'), reoptimize);
		expect(failure.message).toBe('The token lacks permission (audits:write) [forbidden]: Nope');
		expect(failure.description).toMatch(/"audits:write"/);
	});

	it('not_found: names the site ID', () => {
		const failure = describe_(404, envelope('not_found', 'Site site_9 was not found'));
		expect(failure.message).toBe('The site "site_9" was not found [not_found]');
		expect(failure.description).toMatch(/Check the ID, or pick it from the list/);
	});

	it('a 404 that addresses no record points at the base URL', () => {
		const failure = describe_(404, envelope('not_found', 'No route'), {
			method: 'GET',
			path: '/system',
		});
		expect(failure.message).toBe('Nothing exists at /system [not_found]: No route');
		expect(failure.description).toMatch(/base URL .* version segment/);
	});

	it('conflict', () => {
		const failure = describe_(
			409,
			envelope('conflict', 'Hostname a.example is already used by site site_2'),
		);
		expect(failure.message).toMatch(
			/^The Performance Service refused a conflicting change \[conflict\]: Hostname/,
		);
	});

	it('internal_error and other 5xx: a service fault, not retried', () => {
		const failure = describe_(500, envelope('internal_error', 'Boom'));
		expect(failure.message).toBe('The Performance Service failed [internal_error, HTTP 500]: Boom');
		expect(failure.description).toMatch(/not retried automatically/);
		expect(describe_(502, '<html>Bad gateway</html>').message).toBe(
			'The Performance Service failed [internal_error, HTTP 502]: Bad gateway',
		);
	});

	it('any other code is passed on with what the service said', () => {
		const failure = describe_(
			400,
			envelope('invalid_request', 'limit must be an integer from 1 to 100'),
		);
		expect(failure.message).toBe(
			'The Performance Service refused the request [invalid_request, HTTP 400]: limit must be an integer from 1 to 100',
		);
	});
});

describe('describeFailure for rate_limited: which limit and when it resets', () => {
	const body = envelope(
		'rate_limited',
		'Reoptimization limit of 20 per hour for site site_1 reached',
	);
	const farReset = { limit: 20, remaining: 0, resetAt: new Date(NOW + 3_000_000) };

	it('a far reset: failed at once, with the reset time and the limits', () => {
		const failure = describeFailure(PERFORMANCE_SERVICE, 429, body, farReset, reoptimize, 0, NOW);
		expect(failure.message).toBe(
			'Rate limit reached [rate_limited]: Reoptimization limit of 20 per hour for site site_1 reached (resets at 2025-03-01T12:50:00.000Z)',
		);
		expect(failure.description).toContain(
			'The limit resets at 2025-03-01T12:50:00.000Z (in 3000 s).',
		);
		expect(failure.description).toContain(
			'more than 65 s away, too long to wait for, so the node did not retry',
		);
		expect(failure.description).toContain(
			'Limits that apply here: 20 reoptimizations per hour for each site.',
		);
		expect(failure.httpCode).toBe('429');
	});

	it('retries used up: says how often it waited', () => {
		const near = { limit: 1000, remaining: 0, resetAt: new Date(NOW + 20_000) };
		const failure = describeFailure(PERFORMANCE_SERVICE, 429, '', near, getSite, 3, NOW);
		expect(failure.message).toBe(
			'Rate limit reached [rate_limited]: the Performance Service limit of 1000 requests is used up (resets at 2025-03-01T12:00:20.000Z)',
		);
		expect(failure.description).toContain('waited for the reset 3 time(s)');
	});

	it('no reset given', () => {
		const failure = describeFailure(PERFORMANCE_SERVICE, 429, '', {}, getSite, 0, NOW);
		expect(failure.message).toBe(
			'Rate limit reached [rate_limited]: the Performance Service limit is used up',
		);
		expect(failure.description).toContain('did not say when the limit resets');
		expect(describeResetTime({}, NOW)).toMatch(/did not say/);
	});
});

describe('describeUnreachable', () => {
	const url = 'http://perf.example:8080/v1/sites';

	it('tells the connection failures apart', () => {
		const cases: Array<[string, RegExp]> = [
			['ENOTFOUND', /^The host of http:\/\/perf\.example:8080 could not be found \[ENOTFOUND\]$/],
			['ECONNREFUSED', /^http:\/\/perf\.example:8080 refused the connection \[ECONNREFUSED\]$/],
			['ETIMEDOUT', /did not answer in time \[ETIMEDOUT\]$/],
			[
				'ECONNRESET',
				/connection to http:\/\/perf\.example:8080 was dropped before the Performance Service answered/,
			],
			['EPROTO', /^Could not reach http:\/\/perf\.example:8080 \[EPROTO\]$/],
		];
		for (const [code, message] of cases) {
			const failure = describeUnreachable(PERFORMANCE_SERVICE, url, { code });
			expect(failure.message).toMatch(message);
			expect(failure.httpCode).toBe(code);
			expect(failure.description).toContain(
				'Check the base URL in the "Performance Service API" credential',
			);
		}
	});

	it('says a possibly delivered request was not retried, and only then', () => {
		expect(
			describeUnreachable(PERFORMANCE_SERVICE, url, { code: 'ECONNRESET' }).description,
		).toMatch(/not retried/);
		expect(
			describeUnreachable(PERFORMANCE_SERVICE, url, { code: 'ECONNREFUSED' }).description,
		).not.toMatch(/not retried/);
	});

	it('finds the code on a wrapped cause', () => {
		const error = { message: 'wrapped', cause: { cause: { code: 'ECONNREFUSED' } } };
		expect(describeUnreachable(PERFORMANCE_SERVICE, url, error).httpCode).toBe('ECONNREFUSED');
	});
});

describe('describeUnreadable', () => {
	it('names the request and the content type', () => {
		const failure = describeUnreadable(
			PERFORMANCE_SERVICE,
			{ statusCode: 200, headers: { 'content-type': 'text/html' }, body: '<html>' },
			{ method: 'GET', path: '/sites' },
		);
		expect(failure.message).toBe(
			'The Performance Service answered GET /sites with a body that is not valid JSON (text/html) [not_json, HTTP 200]',
		);
	});
});

describe('describeUnreachable: a certificate n8n does not trust', () => {
	const url = 'https://perf.example/v1/sites';

	it('names the certificate failure and the fix, not a dropped connection', () => {
		const cases: Array<[string, string]> = [
			['DEPTH_ZERO_SELF_SIGNED_CERT', 'is self-signed'],
			['SELF_SIGNED_CERT_IN_CHAIN', 'is signed by a certificate authority n8n does not know'],
			['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'is signed by a certificate authority n8n does not know'],
			['CERT_HAS_EXPIRED', 'has expired'],
			['ERR_TLS_CERT_ALTNAME_INVALID', 'is for another host name'],
		];
		for (const [code, reason] of cases) {
			const failure = describeUnreachable(PERFORMANCE_SERVICE, url, { cause: { code } });
			expect(failure.message).toBe(
				`The certificate of https://perf.example ${reason}, so n8n did not connect [${code}]`,
			);
			expect(failure.httpCode).toBe(code);
			expect(failure.description).toContain('NODE_EXTRA_CA_CERTS');
			expect(failure.description).toContain('The request was not sent.');
			expect(failure.description).not.toMatch(/may already have carried it out/);
		}
	});
});

describe('describeFailure: answers in odd shapes', () => {
	const NGINX_502 =
		'<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

	it('an nginx 502 page: its title, no markup', () => {
		expect(describe_(502, NGINX_502).message).toBe(
			'The Performance Service failed [internal_error, HTTP 502]: 502 Bad Gateway',
		);
	});

	it('a 200 KB message is cut to the bound', () => {
		const failure = describe_(400, JSON.stringify({ message: 'x'.repeat(200_000) }));
		expect(failure.message.length).toBeLessThanOrEqual(600);
		expect(failure.message).toMatch(
			/^The Performance Service refused the request \[bad_request, HTTP 400\]: x+…$/,
		);
		expect(failure.description.length).toBeLessThanOrEqual(1200);
	});

	it('`{"errors": ["…"]}` keeps its reason', () => {
		expect(describe_(400, '{"errors": ["url must be a valid URL"]}').message).toBe(
			'The Performance Service refused the request [bad_request, HTTP 400]: url must be a valid URL',
		);
	});

	it('a code that is a sentence or a page is not taken for a code', () => {
		expect(describe_(400, JSON.stringify({ code: '<b>no</b> way', message: 'm' })).message).toBe(
			'The Performance Service refused the request [bad_request, HTTP 400]: m',
		);
	});

	it('a Security 403 speaks of the key and its tenant, not of scopes', () => {
		const failure = describeFailure(
			SECURITY_SERVICE,
			403,
			'{"error":"Forbidden"}',
			{},
			{ method: 'GET', path: '/reports' },
		);
		expect(failure.message).toBe(
			'The Security Service refused this for the API key [forbidden, HTTP 403]: Forbidden',
		);
		expect(failure.description).toContain('API key');
		expect(failure.description).not.toMatch(/scope|token/);
	});
});
