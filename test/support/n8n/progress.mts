const HEARTBEAT_MS = 30_000;

/** One progress line on stderr, so `--rawOutput`-style stdout stays clean. */
export function progress(message: string): void {
	process.stderr.write(`[n8n] ${message}\n`);
}

function seconds(ms: number): string {
	return `${(ms / 1000).toFixed(1)} s`;
}

/** Runs a slow step with a start line, a heartbeat every 30 s, and its duration at the end. */
export async function timed<T>(message: string, step: () => Promise<T>): Promise<T> {
	const started = Date.now();
	progress(`${message} ...`);
	const heartbeat = setInterval(
		() => progress(`  ... still working (${seconds(Date.now() - started)})`),
		HEARTBEAT_MS,
	);
	try {
		const result = await step();
		progress(`  done in ${seconds(Date.now() - started)}`);
		return result;
	} finally {
		clearInterval(heartbeat);
	}
}
