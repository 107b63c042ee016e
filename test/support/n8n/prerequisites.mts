import { ensureN8nRuntime, ensureNodeInstalled } from './install.mts';
import { N8N1_VERSION, OLDEST_NODE_VERSION } from './paths.mts';
import { ensurePostgresInstalled } from './postgres.mts';
import { progress } from './progress.mts';

/**
 * `node test/support/n8n/prerequisites.mts`: what the queue-mode and n8n 1.x suites need beyond the
 * n8n 2.x that `node test/support/n8n/install.mts` installs, each into its own cache folder outside
 * the clone (instant when cached): n8n 1.x with the Node it runs on, the oldest Node
 * `engines.node` admits, and Postgres server binaries. redis-server comes from apt (.ci/run).
 */
const started = Date.now();
await ensureN8nRuntime(N8N1_VERSION);
await ensureNodeInstalled(OLDEST_NODE_VERSION);
await ensurePostgresInstalled();
progress(
	`Queue-mode and n8n 1.x prerequisites ready in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
