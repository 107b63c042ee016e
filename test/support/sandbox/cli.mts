import { parseArgs } from 'node:util';
import { scopesOf } from './auth.mts';
import { startSandbox } from './index.mts';
import { addressInUseHint } from './server.mts';
import type { Sandbox } from './index.mts';
import type { SandboxOptions } from './types.mts';

const DEFAULT_PORT = 5680;

function readOptions(): SandboxOptions {
	const { values } = parseArgs({
		options: {
			port: { type: 'string' },
			'time-scale': { type: 'string' },
			quiet: { type: 'boolean', default: false },
		},
	});
	const port = Number(values.port ?? process.env.PORT ?? DEFAULT_PORT);
	if (!Number.isInteger(port) || port < 0 || port > 65535)
		throw new Error(`Invalid port: ${values.port ?? process.env.PORT}`);
	const options: SandboxOptions = { port, quiet: values.quiet };
	if (values['time-scale'] !== undefined) options.timeScale = Number(values['time-scale']);
	return options;
}

function banner(sandbox: Sandbox): string {
	const tokens = Object.entries(sandbox.tokens).map(
		([name, token]) =>
			`  ${name.padEnd(11)} ${token}   scopes: ${scopesOf(token)?.join(' ') || '(none)'}`,
	);
	return [
		`Service sandbox listening on ${sandbox.origin}`,
		'',
		`Performance service base URL: ${sandbox.performanceUrl}`,
		`Security service base URL:    ${sandbox.securityUrl}`,
		`Control API root:             ${sandbox.controlUrl}   (GET ${sandbox.origin}/ lists it all)`,
		'',
		'Performance API tokens (Authorization: Bearer <token>):',
		...tokens,
		`Security API key (Authorization: Bearer <key>): ${sandbox.securityKey}`,
		`Webhook signing secret:                         ${sandbox.signingSecret}`,
		'',
		`Register a webhook receiver: curl -X POST ${sandbox.controlUrl}/webhooks -H 'content-type: application/json' -d '{"url":"http://127.0.0.1:5678/webhook/..."}'`,
		'Press Ctrl-C to stop.',
	].join('\n');
}

async function main(): Promise<void> {
	const sandbox = await startSandbox(readOptions());
	console.log(banner(sandbox));
	let stopping = false;
	const stop = (signal: string): void => {
		if (stopping) return;
		stopping = true;
		console.log(`\n${signal} received, closing the sandbox`);
		void sandbox.close().then(() => process.exit(0));
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
	const hint = addressInUseHint(error, '--port or PORT');
	console.error(hint ?? (error instanceof Error ? error.message : error));
	process.exit(1);
});
