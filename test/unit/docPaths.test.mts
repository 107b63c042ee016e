import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { PACKAGE_ROOT } from '../support/n8n/paths.mts';

/**
 * Every file a document names exists: each relative link, and each `code span` that is a path in
 * the repository (it starts with one of its top-level folders). A segment with `<`, `*` or `{`, or
 * a single letter (`nodes/X/Y/z.ts`), is a placeholder: the path up to it must exist.
 */

const DOCUMENTS = [
	'README.md',
	'CONTRIBUTING.md',
	...readdirSync(path.join(PACKAGE_ROOT, 'docs'))
		.filter((file) => file.endsWith('.md'))
		.map((file) => `docs/${file}`),
];
/** Folders a code-span path starts with; built or generated ones (dist/, test-artifacts/) are not here. */
const TOP_FOLDERS = [
	'nodes',
	'credentials',
	'test',
	'docs',
	'benchmarks',
	'examples',
	'.ci',
	'.github',
];

function withoutPlaceholders(target: string): string {
	const segments = target.split('/');
	const end = segments.findIndex(
		(segment) => /[<*{]/.test(segment) || /^[A-Za-z]$/.test(segment.split('.')[0]),
	);
	return (end === -1 ? segments : segments.slice(0, end)).join('/');
}

/** The paths `document` names, each as the document gives it and resolved from the repository root. */
function namedPaths(document: string): Array<{ named: string; resolved: string }> {
	const text = readFileSync(path.join(PACKAGE_ROOT, document), 'utf8');
	const named: Array<{ named: string; resolved: string }> = [];
	for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
		if (/^([a-z]+:|#)/.test(target)) continue;
		const file = target.split('#')[0];
		named.push({ named: target, resolved: path.join(path.dirname(document), file) });
	}
	for (const [, span] of text.matchAll(/`([^`\s]+)`/g)) {
		if (TOP_FOLDERS.includes(span.split('/')[0]) && span.includes('/'))
			named.push({ named: span, resolved: span });
	}
	return named;
}

describe('paths named in the documents', () => {
	it.each(DOCUMENTS)('%s names only files that exist', (document) => {
		const missing = namedPaths(document)
			.filter(({ resolved }) => !existsSync(path.join(PACKAGE_ROOT, withoutPlaceholders(resolved))))
			.map(({ named }) => named);
		expect(missing).toEqual([]);
	});
});
