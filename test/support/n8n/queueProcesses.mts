import type { N8nOptions } from './instance.mts';
import type { Postgres } from './postgres.mts';
import { freePort } from './processes.mts';
import type { Redis } from './redis.mts';

/** `n8n webhook` processes of the queue-mode suite and the queue benchmark. */
export const QUEUE_WEBHOOK_PROCESSES = 2;

/**
 * The processes of one n8n 2.x queue-mode installation on one machine: one main, one worker (with
 * its health check on, as n8n's readiness probe for a worker) and QUEUE_WEBHOOK_PROCESSES
 * `n8n webhook` processes, all on one user folder, one encryption key, Postgres and Redis. Used by the
 * queue-mode suite (test/e2e-queue) and the queue-mode benchmark.
 */
export interface QueueProcesses {
	main: N8nOptions;
	worker: N8nOptions;
	/** The worker's health-check port (the port its process listens on). */
	workerHealthPort: number;
	webhooks: N8nOptions[];
}

/**
 * As the README and docs/queue-mode.md recommend. At n8n 2.41's default of 0, a finished job leaves Redis at
 * once, and the process that enqueued it can miss its end: Bull's `Job.finished()` (bull 4.16,
 * OptimalBits/bull#2504) then never resolves, main keeps the execution in `ActiveExecutions` as
 * running, and `ExecutionService.findManyAndCount` leaves it out of the public API's list for as
 * long as main runs. Measured (webhook calls to main, 5 at a time): 8 of 1,200 executions hidden
 * so at 0, 0 of 1,200 at 100.
 */
const QUEUE_RETENTION = {
	N8N_EXECUTIONS_QUEUE_KEEP_LAST_COMPLETED: '100',
	N8N_EXECUTIONS_QUEUE_KEEP_LAST_FAILED: '100',
};

export async function queueProcesses(options: {
	installDir: string;
	userFolder: string;
	postgres: Postgres;
	redis: Redis;
	/** n8n settings for every process (e.g. lazy isolates). */
	env?: Record<string, string>;
	/** The webhook processes are reached through one reverse proxy (nginx), which adds X-Forwarded-For. */
	behindProxy?: boolean;
}): Promise<QueueProcesses> {
	const env = {
		...options.postgres.n8nEnv,
		...options.redis.n8nEnv,
		...QUEUE_RETENTION,
		...options.env,
		EXECUTIONS_MODE: 'queue',
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
	};
	const shared = {
		installDir: options.installDir,
		userFolder: options.userFolder,
		encryptionKey: `queue-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`,
		env,
	};
	const workerHealthPort = await freePort();
	const webhooks: N8nOptions[] = [];
	for (let index = 0; index < QUEUE_WEBHOOK_PROCESSES; index++) {
		webhooks.push({
			...shared,
			command: 'webhook',
			port: await freePort(),
			...(options.behindProxy ? { env: { ...env, N8N_PROXY_HOPS: '1' } } : {}),
			logName: `webhook-${index + 1}.log`,
		});
	}
	return {
		main: { ...shared, port: await freePort(), logName: 'main.log' },
		worker: {
			...shared,
			command: 'worker',
			port: await freePort(),
			logName: 'worker.log',
			env: {
				...env,
				QUEUE_HEALTH_CHECK_ACTIVE: 'true',
				QUEUE_HEALTH_CHECK_PORT: String(workerHealthPort),
				N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
			},
			readinessUrl: `http://127.0.0.1:${workerHealthPort}/healthz/readiness`,
		},
		workerHealthPort,
		webhooks,
	};
}
