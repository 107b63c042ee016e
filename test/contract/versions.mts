import { N8N_NEWEST_VERSION, N8N_VERSION, N8N1_VERSION } from '../support/n8n/paths.mts';

/**
 * The n8n releases the contract suite runs in: N8N_CONTRACT_VERSIONS (comma-separated, e.g.
 * `1.123.81,2.41.1,2.41.3`; the weekly workflow passes the newest the registry serves), or the
 * newest 1.x, the pinned 2.x and the newest 2.x known when this was written.
 */
export function contractVersions(fromEnv = process.env.N8N_CONTRACT_VERSIONS): string[] {
	const listed = (fromEnv ?? '')
		.split(',')
		.map((version) => version.trim())
		.filter((version) => version !== '');
	const versions = listed.length > 0 ? listed : [N8N1_VERSION, N8N_VERSION, N8N_NEWEST_VERSION];
	for (const version of versions) {
		if (!/^[12]\.\d+\.\d+$/.test(version))
			throw new Error(
				`N8N_CONTRACT_VERSIONS: "${version}" is not an n8n 1.x or 2.x release (x.y.z)`,
			);
	}
	return [...new Set(versions)];
}

/** n8n 1.x: activation instead of publishing, a readiness probe that comes early, no mcp-registry module. */
export function isN8n1(version: string): boolean {
	return version.startsWith('1.');
}

/**
 * n8n 1.x answers an `onReceived` webhook call before it creates the execution, for every
 * trigger (its own Webhook node too): A1 does not hold there, and the suite asserts less.
 */
export function answersBeforeRecording(version: string): boolean {
	return isN8n1(version);
}
