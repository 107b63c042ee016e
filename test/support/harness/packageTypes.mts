import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import type { ICredentialType, INodeType } from 'n8n-workflow';

import { PACKAGE_NAME, PACKAGE_ROOT } from '../n8n/paths.mts';

interface PackageJson {
	n8n: { nodes: string[]; credentials: string[] };
}

/**
 * Loads what package.json's `n8n` section registers, the way n8n does: one class per file,
 * named like the file (`dist/nodes/Foo/Foo.node.js` exports `Foo`). The TypeScript source
 * stands in for `dist/`, so tests need no build.
 */
async function loadRegistered<T>(kind: 'nodes' | 'credentials'): Promise<T[]> {
	const pkg = JSON.parse(
		readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8'),
	) as PackageJson;
	const loaded: T[] = [];
	for (const distPath of pkg.n8n[kind]) {
		const source = distPath.replace(/^dist\//, '').replace(/\.js$/, '.ts');
		const className = path.basename(distPath).split('.')[0];
		const module = (await import(pathToFileURL(path.join(PACKAGE_ROOT, source)).href)) as Record<
			string,
			new () => T
		>;
		const Class = module[className];
		if (typeof Class !== 'function')
			throw new Error(`${source} does not export a class ${className}`);
		loaded.push(new Class());
	}
	return loaded;
}

export interface PackageTypes {
	nodes: Map<string, INodeType>;
	credentials: Map<string, ICredentialType>;
}

let cached: Promise<PackageTypes> | undefined;

export function loadPackageTypes(): Promise<PackageTypes> {
	cached ??= (async () => {
		const nodes = new Map<string, INodeType>();
		for (const node of await loadRegistered<INodeType>('nodes')) {
			nodes.set(`${PACKAGE_NAME}.${node.description.name}`, node);
		}
		const credentials = new Map<string, ICredentialType>();
		for (const credential of await loadRegistered<ICredentialType>('credentials')) {
			credentials.set(credential.name, credential);
		}
		return { nodes, credentials };
	})();
	return cached;
}

/** The version a node of this package ships (its newest); 1 for a type outside the package. */
export function shippedVersion(types: PackageTypes, type: string): number {
	const version = types.nodes.get(type)?.description.version ?? 1;
	return Array.isArray(version) ? Math.max(...version) : version;
}
