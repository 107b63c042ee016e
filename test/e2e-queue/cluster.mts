import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { startSandbox } from '../support/sandbox/index.mts';
import type { Sandbox } from '../support/sandbox/index.mts';
import { N8nClient } from '../support/n8n/client.mts';
import { installCommunityPackage } from '../support/n8n/communityPackage.mts';
import type { CredentialIds } from '../support/n8n/examples.mts';
import { ensureN8nInstalled } from '../support/n8n/install.mts';
import { startN8n } from '../support/n8n/instance.mts';
import type { N8nInstance, N8nOptions } from '../support/n8n/instance.mts';
import { startNginx } from '../support/n8n/nginx.mts';
import type { Nginx } from '../support/n8n/nginx.mts';
import { startPostgres } from '../support/n8n/postgres.mts';
import { queueProcesses } from '../support/n8n/queueProcesses.mts';
import { startRedis } from '../support/n8n/redis.mts';
import { createSandboxCredentials, DEMO_OWNER } from '../support/n8n/stack.mts';

/**
 * n8n 2.x in queue mode on one machine: Postgres and Redis on loopback ports, one main, one
 * worker and two `n8n webhook` processes sharing a user folder (one encryption key, the package
 * installed once as a community package), nginx in front of the webhook processes as
 * docs/queue-mode.md sets it up (each webhook path to one of them), and the sandbox as the service.
 */
export interface QueueCluster {
	sandbox: Sandbox;
	main: N8nInstance;
	worker: N8nInstance;
	webhooks: N8nInstance[];
	/** nginx in front of the webhook processes: `${proxy.origin}/webhook/...`. */
	proxy: Nginx;
	client: N8nClient;
	credentialIds: CredentialIds;
	/** Stops both webhook processes (also one that was killed) and starts them again on the same ports. */
	restartWebhooks(): Promise<void>;
	/** The worker's log so far. */
	workerLog(): string;
	stop(): Promise<void>;
}

/** Stops what was started, newest first; keeps going when one fails. */
class Cleanup {
	private readonly steps: Array<() => Promise<void>> = [];

	add(step: () => Promise<void>): void {
		this.steps.push(step);
	}

	/** Resolves to what `starting` started, once its stop is registered. */
	async track<T>(starting: Promise<T>, stop: (started: T) => Promise<void>): Promise<T> {
		const started = await starting;
		this.add(() => stop(started));
		return started;
	}

	async run(): Promise<void> {
		for (const step of this.steps.splice(0).reverse()) await step().catch(() => undefined);
	}
}

export async function startQueueCluster(): Promise<QueueCluster> {
	const installDir = await ensureN8nInstalled();
	const cleanup = new Cleanup();
	try {
		const userFolder = mkdtempSync(path.join(os.tmpdir(), 'n8n-queue-'));
		cleanup.add(async () => rmSync(userFolder, { recursive: true, force: true }));
		// Side by side; each registers its stop once started, and all settle before a failure is thrown.
		const starting = [
			cleanup.track(startPostgres(), (postgres) => postgres.stop()),
			cleanup.track(startRedis(), (redis) => redis.stop()),
			cleanup.track(startSandbox({ quiet: true, port: 0 }), (sandbox) => sandbox.close()),
		] as const;
		await Promise.allSettled(starting);
		const [postgres, redis, sandbox] = await Promise.all(starting);
		await installCommunityPackage(userFolder);

		const processes = await queueProcesses({
			installDir,
			userFolder,
			postgres,
			redis,
			behindProxy: true,
		});
		const main = await startN8n(processes.main);
		cleanup.add(() => main.stop());
		const client = await N8nClient.setupOwner(main.origin, DEMO_OWNER);
		const credentialIds = await createSandboxCredentials(client, sandbox);

		const webhookOptions = processes.webhooks;
		const [worker, ...webhooks] = await startAll(cleanup, [processes.worker, ...webhookOptions]);
		const proxy = await cleanup.track(
			startNginx(webhookOptions.map((options) => options.port)),
			(started) => started.stop(),
		);
		const restartWebhooks = async (): Promise<void> => {
			await Promise.all(webhooks.map((instance) => instance.stop()));
			const restarted = await startAll(cleanup, webhookOptions);
			webhooks.splice(0, webhooks.length, ...restarted);
		};
		return {
			sandbox,
			main,
			worker,
			webhooks,
			proxy,
			client,
			credentialIds,
			restartWebhooks,
			workerLog: () => readFileSync(worker.logFile, 'utf8'),
			stop: () => cleanup.run(),
		};
	} catch (error) {
		await cleanup.run();
		throw error;
	}
}

/** Starts the processes side by side; each one that started is stopped by the cleanup, also when another fails. */
async function startAll(cleanup: Cleanup, options: N8nOptions[]): Promise<N8nInstance[]> {
	const starting = options.map((each) =>
		cleanup.track(startN8n(each), (instance) => instance.stop()),
	);
	await Promise.allSettled(starting);
	return await Promise.all(starting);
}
