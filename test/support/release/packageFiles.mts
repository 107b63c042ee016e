/**
 * What the published tarball may hold: the compiled nodes and credentials n8n loads, their icons,
 * codex files and output schemas, and the manifest, README, changelog and licence npm adds.
 */
const ALLOWED = [
	/^package\.json$/,
	/^README\.md$/,
	/^CHANGELOG\.md$/,
	/^LICEN[CS]E(\.md)?$/,
	/^dist\/(nodes|credentials)\/.+\.js$/,
	/^dist\/(nodes|credentials)\/.+\.(svg|png)$/,
	/^dist\/nodes\/.+\.node\.json$/,
	/^dist\/nodes\/.+\/__schema__\/.+\.json$/,
];

/** The packed paths that match none of the allowed kinds (declarations, source maps, sources, tests...). */
export function unexpectedPackageFiles(files: string[]): string[] {
	return files.filter((file) => !ALLOWED.some((pattern) => pattern.test(file)));
}

/** The nodes and credentials package.json declares to n8n that the packed paths lack (a missing or stale build). */
export function missingDeclaredFiles(
	files: string[],
	n8n: { nodes?: string[]; credentials?: string[] },
): string[] {
	const packed = new Set(files);
	return [...(n8n.nodes ?? []), ...(n8n.credentials ?? [])].filter((file) => !packed.has(file));
}
