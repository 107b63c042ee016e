import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the scripted service received. */
export interface ScriptedRequest {
	method: string;
	/** Path and query, as sent. */
	url: string;
	headers: IncomingHttpHeaders;
	body: string;
}

/** How the scripted service answers one request; `drop`: the connection is closed without an answer. */
export interface ScriptedAnswer {
	status?: number;
	headers?: Record<string, string>;
	/** A string is sent as is; anything else as JSON. */
	body?: unknown;
	drop?: boolean;
}

export interface ScriptedService {
	/** `http://127.0.0.1:<port>`: each service started has its own origin. */
	origin: string;
	requests: ScriptedRequest[];
	close(): Promise<void>;
}

/**
 * A service on 127.0.0.1 that answers every request as `answer` says (any status, header or body a
 * service, a proxy or a CDN could send) and records what it received, for the property tests that
 * generate answers rather than use the sandbox's model.
 */
export async function startScriptedService(
	answer: (request: ScriptedRequest) => ScriptedAnswer | Promise<ScriptedAnswer>,
): Promise<ScriptedService> {
	const requests: ScriptedRequest[] = [];
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const request: ScriptedRequest = {
				method: req.method ?? 'GET',
				url: req.url ?? '/',
				headers: req.headers,
				body: Buffer.concat(chunks).toString('utf8'),
			};
			requests.push(request);
			void Promise.resolve(answer(request)).then(({ status = 200, headers = {}, body, drop }) => {
				if (drop) return void req.socket.destroy();
				const text =
					typeof body === 'string' ? body : body === undefined ? '' : JSON.stringify(body);
				const type = typeof body === 'string' ? 'text/plain' : 'application/json';
				res.writeHead(status, { 'content-type': type, ...headers }).end(text);
			});
		});
	});
	server.keepAliveTimeout = 1;
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		origin: `http://127.0.0.1:${port}`,
		requests,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
