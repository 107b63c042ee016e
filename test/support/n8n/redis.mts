import { createConnection } from 'node:net';

import { freePort, startServer } from './processes.mts';

export interface Redis {
	port: number;
	/** n8n's queue settings for this server. */
	n8nEnv: Record<string, string>;
	stop(): Promise<void>;
}

/** Debian's redis-server (`apt-get install -y redis-server`); .ci/run installs it when missing. */
export const REDIS_SERVER = process.env.REDIS_SERVER ?? 'redis-server';

function answersPing(port: number): Promise<true | undefined> {
	return new Promise((resolve) => {
		const socket = createConnection({ host: '127.0.0.1', port });
		socket.once('error', () => resolve(undefined));
		socket.once('data', (data) => {
			socket.destroy();
			resolve(data.toString().startsWith('+PONG') ? true : undefined);
		});
		socket.once('connect', () => socket.write('PING\r\n'));
	});
}

/** Starts a throw-away, memory-only Redis on 127.0.0.1 (a free port); killed when this process exits. */
export async function startRedis(): Promise<Redis> {
	const port = await freePort();
	const stop = await startServer(
		REDIS_SERVER,
		[
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--save',
			'',
			'--appendonly',
			'no',
			'--daemonize',
			'no',
		],
		{
			ready: () => answersPing(port),
			readyWhat: 'redis-server to answer PING',
			installHint: 'apt-get install -y redis-server',
		},
	);
	return {
		port,
		n8nEnv: { QUEUE_BULL_REDIS_HOST: '127.0.0.1', QUEUE_BULL_REDIS_PORT: String(port) },
		stop,
	};
}
