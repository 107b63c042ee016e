/** Response or request headers as n8n and Node.js hand them over. */
export type HeaderBag = Record<string, unknown>;

/**
 * A header's value, its name matched case-insensitively. A header sent several times comes as
 * its values joined with ", " (RFC 9110), so a duplicated single-value header reads as malformed.
 */
export function readHeader(headers: HeaderBag, name: string): string | undefined {
	const wanted = name.toLowerCase();
	for (const [key, value] of Object.entries(headers)) {
		if (key.toLowerCase() !== wanted) continue;
		if (Array.isArray(value)) return value.map(String).join(', ');
		return typeof value === 'string' ? value : undefined;
	}
	return undefined;
}
