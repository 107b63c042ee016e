import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterEach } from 'vitest';

export interface Received {
	headers: IncomingHttpHeaders;
	rawBody: string;
}

export interface Receiver {
	url: string;
	received: Received[];
}

/**
 * Local HTTP servers standing in for a service's webhook client, closed after each test of the
 * calling file. The returned function starts one; `statusFor(n)` decides the answer to the n-th
 * request (1-based), and holds it back until its promise settles.
 */
export function withReceivers(): (
	statusFor?: (n: number) => number | Promise<number>,
) => Promise<Receiver> {
	const closes: Array<() => Promise<void>> = [];
	afterEach(async () => {
		while (closes.length > 0) await closes.pop()?.();
	});
	return async (statusFor = () => 200) => {
		const received: Received[] = [];
		const server = createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (chunk: Buffer) => chunks.push(chunk));
			req.on('end', () => {
				received.push({ headers: req.headers, rawBody: Buffer.concat(chunks).toString('utf8') });
				void Promise.resolve(statusFor(received.length)).then((status) =>
					res.writeHead(status).end(),
				);
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		closes.push(
			() =>
				new Promise<void>((resolve) => {
					server.close(() => resolve());
					server.closeAllConnections();
				}),
		);
		return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
	};
}
