import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { freePort, startServer, tail } from './processes.mts';

/** Debian's nginx (`apt-get install -y nginx`; .ci/run installs it when missing), in sbin. */
export const NGINX =
	process.env.NGINX ??
	['/usr/sbin/nginx', '/sbin/nginx'].find((candidate) => existsSync(candidate)) ??
	'nginx';

/**
 * How long nginx sends nothing to a webhook process after it failed to answer (n8n's default
 * fail_timeout is 10 s): on the next attempt after that, a process still down costs one refused
 * connection, and the request goes on to the other process.
 */
const FAIL_TIMEOUT_SECONDS = 2;

/** One request nginx passed on: the webhook processes (ports) it tried, in order, and its answer. */
export interface ProxiedRequest {
	uri: string;
	status: number;
	upstreamPorts: number[];
}

export interface Nginx {
	origin: string;
	port: number;
	/** Every request nginx has answered so far, oldest first. */
	requests(): ProxiedRequest[];
	stop(): Promise<void>;
}

/**
 * The set-up of docs/queue-mode.md: each webhook path goes to one webhook process
 * (`hash $request_uri consistent`), and to another one when that process does not take connections.
 */
function nginxConfig(folder: string, port: number, upstreamPorts: number[]): string {
	const servers = upstreamPorts.map(
		(upstream) =>
			`\t\tserver 127.0.0.1:${upstream} max_fails=1 fail_timeout=${FAIL_TIMEOUT_SECONDS}s;`,
	);
	const inFolder = (name: string): string => path.join(folder, name);
	return [
		'daemon off;',
		// One process, as root too (no worker user that could not enter the temp folder).
		'master_process off;',
		`pid ${inFolder('nginx.pid')};`,
		`error_log ${inFolder('error.log')} warn;`,
		'events { worker_connections 1024; }',
		'http {',
		'\tlog_format proxied "$request_uri $status $upstream_addr";',
		`\taccess_log ${inFolder('access.log')} proxied;`,
		...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
			(kind) => `\t${kind}_temp_path ${inFolder(kind)};`,
		),
		'\tupstream n8n_webhooks {',
		'\t\thash $request_uri consistent;',
		...servers,
		'\t}',
		'\tserver {',
		`\t\tlisten 127.0.0.1:${port};`,
		'\t\tlocation /webhook/ {',
		'\t\t\tproxy_pass http://n8n_webhooks;',
		'\t\t\tproxy_next_upstream error timeout;',
		'\t\t\tproxy_set_header Host $host;',
		'\t\t\tproxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
		'\t\t\tproxy_set_header X-Forwarded-Proto $scheme;',
		'\t\t}',
		'\t}',
		'}',
		'',
	].join('\n');
}

/** `/webhook/x 502 127.0.0.1:5001, 127.0.0.1:5002` (a retried request lists each process tried). */
function parseRequest(line: string): ProxiedRequest {
	const [uri, status, ...upstreams] = line.split(' ');
	return {
		uri,
		status: Number(status),
		upstreamPorts: upstreams
			.map((address) => Number(address.replace(/,$/, '').split(':').pop()))
			.filter((upstream) => Number.isInteger(upstream) && upstream > 0),
	};
}

function acceptsConnections(port: number): Promise<true | undefined> {
	return new Promise((resolve) => {
		const socket = createConnection({ host: '127.0.0.1', port });
		socket.once('error', () => resolve(undefined));
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
	});
}

/**
 * Starts nginx in the foreground on 127.0.0.1 (a free port) in front of the webhook processes
 * listening on `upstreamPorts`, with its configuration, logs and temp folders in a folder of its
 * own (nothing under /etc/nginx or /var); killed when this process exits.
 */
export async function startNginx(upstreamPorts: number[]): Promise<Nginx> {
	const folder = mkdtempSync(path.join(os.tmpdir(), 'nginx-'));
	const port = await freePort();
	const config = path.join(folder, 'nginx.conf');
	const errorLog = path.join(folder, 'error.log');
	const accessLog = path.join(folder, 'access.log');
	writeFileSync(config, nginxConfig(folder, port, upstreamPorts));
	const removeFolder = (): void => rmSync(folder, { recursive: true, force: true });
	let stopServer: () => Promise<void>;
	try {
		// -e: the error log before the configuration is read (the built-in one is under /var/log).
		stopServer = await startServer(NGINX, ['-e', errorLog, '-p', folder, '-c', config], {
			ready: () => acceptsConnections(port),
			readyWhat: 'nginx to accept connections',
			installHint: 'apt-get install -y nginx',
			// nginx finishes the requests it is answering, then exits.
			stopSignal: 'SIGQUIT',
			logTail: () => (existsSync(errorLog) ? tail(readFileSync(errorLog, 'utf8')) : ''),
		});
	} catch (error) {
		removeFolder();
		throw error;
	}
	return {
		origin: `http://127.0.0.1:${port}`,
		port,
		requests: () =>
			existsSync(accessLog)
				? readFileSync(accessLog, 'utf8').trim().split('\n').filter(Boolean).map(parseRequest)
				: [],
		stop: async () => {
			await stopServer();
			removeFolder();
		},
	};
}
