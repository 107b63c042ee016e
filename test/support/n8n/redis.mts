import { spawn } from 'node:child_process';
import { createConnection } from 'node:net';

import { freePort, waitFor } from './processes.mts';

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
	const child = spawn(
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
			stdio: ['ignore', 'ignore', 'pipe'],
		},
	);
	let stderr = '';
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const killOnExit = (): void => {
		child.kill('SIGKILL');
	};
	process.once('exit', killOnExit);
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const failed = new Promise<never>((_, reject) => {
		child.once('error', (error) =>
			reject(
				new Error(
					`${REDIS_SERVER} did not start (apt-get install -y redis-server): ${error.message}`,
				),
			),
		);
		void exited.then(() => reject(new Error(`${REDIS_SERVER} exited: ${stderr}`)));
	});
	const stop = async (): Promise<void> => {
		if (child.exitCode === null && child.signalCode === null) {
			child.kill('SIGTERM');
			await exited;
		}
		process.off('exit', killOnExit);
	};
	try {
		await Promise.race([
			waitFor('redis-server to answer PING', () => answersPing(port), { timeoutMs: 30_000 }),
			failed,
		]);
	} catch (error) {
		await stop();
		throw error;
	}
	failed.catch(() => undefined);
	return {
		port,
		n8nEnv: { QUEUE_BULL_REDIS_HOST: '127.0.0.1', QUEUE_BULL_REDIS_PORT: String(port) },
		stop,
	};
}
