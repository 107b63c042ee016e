import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runNode } from '../support/harness/runNode.mts';

/** A TLS server on 127.0.0.1 with a self-signed certificate made by openssl for this test. */
let server: Server;
let origin: string;
let requests = 0;

beforeAll(async () => {
	const dir = mkdtempSync(path.join(tmpdir(), 'tls-test-'));
	const key = path.join(dir, 'key.pem');
	const cert = path.join(dir, 'cert.pem');
	execFileSync(
		'openssl',
		[
			'req',
			'-x509',
			'-newkey',
			'rsa:2048',
			'-nodes',
			'-keyout',
			key,
			'-out',
			cert,
			'-days',
			'1',
			'-subj',
			'/CN=127.0.0.1',
			'-addext',
			'subjectAltName=IP:127.0.0.1',
		],
		{ stdio: 'ignore' },
	);
	server = createServer(
		{ key: readFileSync(key), cert: readFileSync(cert) },
		(_request, response) => {
			requests++;
			response.writeHead(200, { 'content-type': 'application/json' }).end('{"sites":[]}');
		},
	);
	rmSync(dir, { recursive: true, force: true });
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('a service behind a certificate n8n does not trust', () => {
	it('names the certificate and the fix, not a dropped connection', async () => {
		const { error } = await runNode(
			'performanceService',
			{ resource: 'site', operation: 'getAll', returnAll: true },
			{ credentials: { baseUrl: `${origin}/v1`, apiToken: 'perf_tls_test' } },
		);
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe(
			`The certificate of ${origin} is self-signed, so n8n did not connect [DEPTH_ZERO_SELF_SIGNED_CERT]`,
		);
		expect(error?.httpCode).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
		expect(error?.description).toContain('NODE_EXTRA_CA_CERTS');
		expect(error?.description).not.toMatch(/dropped|may already have carried it out/);
		expect(requests).toBe(0);
	});
});
