import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';
import { afterAll, beforeAll, expect, vi } from 'vitest';

import { triggerPoller, type PollRun } from '../../support/harness/runPoll.mts';
import { requestsTo, withSandbox } from '../../support/harness/sandbox.mts';
import type { SandboxOptions } from '../../support/sandbox/index.mts';

/** The trigger's name in the test workflows; its static data is kept under `node:<name>`. */
export const NODE_NAME = 'Performance Poll Trigger';

/**
 * Starts a sandbox for the calling test file and returns it with `poll`, which runs one poll of
 * the Performance Service Poll Trigger through n8n's engine (see runPoll), and `control`, which
 * calls the sandbox's control API.
 */
export function pollTriggerSandbox(options: SandboxOptions = {}) {
	const sandbox = withSandbox(options);
	const poll = triggerPoller(
		'performanceServicePollTrigger',
		'performanceServiceApi',
		NODE_NAME,
		(baseUrl = sandbox.performanceUrl) => ({
			performanceServiceApi: { baseUrl, apiToken: sandbox.tokens.readOnly },
		}),
	);
	const control = async (path: string, body: IDataObject = {}): Promise<IDataObject> => {
		const response = await fetch(`${sandbox.controlUrl}${path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		expect(response.ok).toBe(true);
		return (await response.json()) as IDataObject;
	};
	/** Performance requests the sandbox received while `action` ran. */
	const counted = async <T,>(action: () => Promise<T>): Promise<{ value: T; requests: number }> => {
		const before = requestsTo(sandbox, 'performance').length;
		const value = await action();
		return { value, requests: requestsTo(sandbox, 'performance').length - before };
	};
	return { sandbox, poll, control, counted };
}

/** A poll that must succeed. */
export async function succeeding(run: Promise<PollRun>): Promise<PollRun> {
	const done = await run;
	expect(done.error).toBeUndefined();
	return done;
}

/** The IDs of the records a poll emitted, in order. */
export function ids(run: PollRun): string[] {
	return run.items.map((item) => item.json.id as string);
}

/** The trigger's memory in saved static data. */
export function memoryOf(staticData: IDataObject | undefined): IDataObject | undefined {
	const node = staticData?.[`node:${NODE_NAME}`] as { seen?: IDataObject } | undefined;
	return node?.seen;
}

/** The size of the trigger's static data as n8n saves it (JSON characters). */
export function staticDataSize(staticData: IDataObject | undefined): number {
	return JSON.stringify(staticData?.[`node:${NODE_NAME}`] ?? {}).length;
}

/** Spies on the warnings n8n's logger receives (the one the node's `this.logger` is). */
export function spyOnWarnings() {
	const fromCore = createRequire(createRequire(import.meta.url).resolve('n8n-core'));
	const { Container } = fromCore('@n8n/di') as { Container: { get: (type: unknown) => unknown } };
	const { Logger } = fromCore('@n8n/backend-common') as { Logger: unknown };
	const logger = Container.get(Logger) as { warn: (message: string) => void };
	return vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
}

/**
 * A local Performance Service for the calling test file (or describe block) whose every answer is
 * `{ sites }` with the sites `sites()` returns at that moment. Returns its base URL, known once the
 * block's tests start.
 */
export function sitesServer(sites: () => IDataObject[]): () => string {
	let server: Server;
	let baseUrl = '';
	beforeAll(async () => {
		server = createServer((_request, response) => {
			response.setHeader('content-type', 'application/json');
			response.end(JSON.stringify({ sites: sites() }));
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
	});
	afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
	return () => baseUrl;
}
