import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import ts from 'typescript';
import { describe, expect, it } from 'vitest';

import { PACKAGE_ROOT } from '../support/n8n/paths.mts';

/** The folders whose modules must not import each other in a circle. */
const ROOTS = ['nodes', 'credentials'];

/** Every .ts file below `dir`, as a path relative to the package root with `/` separators. */
function typeScriptFiles(dir: string): string[] {
	return readdirSync(path.join(PACKAGE_ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
		const relative = `${dir}/${entry.name}`;
		if (entry.isDirectory()) return typeScriptFiles(relative);
		return entry.isFile() && entry.name.endsWith('.ts') ? [relative] : [];
	});
}

/**
 * Every module specifier a file names: `import` and `import type` (also with no bindings),
 * `export … from` and `export type … from`, `import x = require()`, `import()`, `require()`
 * and `typeof import()` types.
 */
function specifiersOf(fileName: string, text: string): string[] {
	const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
	const found: string[] = [];
	const visit = (node: ts.Node): void => {
		if (
			(ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
			node.moduleSpecifier &&
			ts.isStringLiteral(node.moduleSpecifier)
		) {
			found.push(node.moduleSpecifier.text);
		} else if (
			ts.isImportEqualsDeclaration(node) &&
			ts.isExternalModuleReference(node.moduleReference) &&
			ts.isStringLiteral(node.moduleReference.expression)
		) {
			found.push(node.moduleReference.expression.text);
		} else if (
			ts.isCallExpression(node) &&
			(node.expression.kind === ts.SyntaxKind.ImportKeyword ||
				(ts.isIdentifier(node.expression) && node.expression.text === 'require')) &&
			node.arguments.length > 0 &&
			ts.isStringLiteralLike(node.arguments[0])
		) {
			found.push(node.arguments[0].text);
		} else if (
			ts.isImportTypeNode(node) &&
			ts.isLiteralTypeNode(node.argument) &&
			ts.isStringLiteral(node.argument.literal)
		) {
			found.push(node.argument.literal.text);
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

/** The file a relative specifier names among `files`, the way TypeScript resolves it. */
function resolve(from: string, specifier: string, files: Set<string>): string | undefined {
	const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
	const withoutJs = target.replace(/\.(m|c)?js$/, '');
	const candidates = [target, `${withoutJs}.ts`, `${target}.ts`, `${target}/index.ts`];
	return candidates.find((candidate) => files.has(candidate));
}

interface ImportGraph {
	/** File → the files of the graph it imports, in the order it names them. */
	edges: Map<string, string[]>;
	/** Relative specifiers that name no file of the graph, as `file → specifier`. */
	unresolved: string[];
}

/** The graph of relative imports between the given files (path → source text). */
function importGraph(sources: Map<string, string>): ImportGraph {
	const files = new Set(sources.keys());
	const edges = new Map<string, string[]>();
	const unresolved: string[] = [];
	for (const [file, text] of sources) {
		const targets: string[] = [];
		for (const specifier of specifiersOf(file, text)) {
			if (!specifier.startsWith('.')) continue;
			const target = resolve(file, specifier, files);
			if (target === undefined) unresolved.push(`${file} → ${specifier}`);
			else if (!targets.includes(target)) targets.push(target);
		}
		edges.set(file, targets);
	}
	return { edges, unresolved };
}

/** Every cycle the graph holds, one per strongly connected component, as `a → b → … → a`. */
function findCycles(edges: Map<string, string[]>): string[][] {
	// Tarjan's strongly connected components, then one cycle through each non-trivial component.
	let next = 0;
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const components: string[][] = [];

	const connect = (file: string): void => {
		index.set(file, next);
		low.set(file, next);
		next++;
		stack.push(file);
		onStack.add(file);
		for (const target of edges.get(file) ?? []) {
			if (!index.has(target)) {
				connect(target);
				low.set(file, Math.min(low.get(file) ?? 0, low.get(target) ?? 0));
			} else if (onStack.has(target)) {
				low.set(file, Math.min(low.get(file) ?? 0, index.get(target) ?? 0));
			}
		}
		if (low.get(file) !== index.get(file)) return;
		const component: string[] = [];
		let member: string | undefined;
		do {
			member = stack.pop() as string;
			onStack.delete(member);
			component.push(member);
		} while (member !== file);
		const selfImport = (edges.get(file) ?? []).includes(file);
		if (component.length > 1 || selfImport) components.push(component);
	};
	for (const file of [...edges.keys()].sort()) if (!index.has(file)) connect(file);

	return components.map((component) => cycleWithin(edges, new Set(component)));
}

/** A shortest cycle through the alphabetically first file of a strongly connected component. */
function cycleWithin(edges: Map<string, string[]>, component: Set<string>): string[] {
	const start = [...component].sort()[0];
	const cameFrom = new Map<string, string>();
	const queue = [start];
	for (let at = 0; at < queue.length; at++) {
		const file = queue[at];
		for (const target of edges.get(file) ?? []) {
			if (!component.has(target)) continue;
			if (target === start) {
				const cycle = [start];
				for (let back = file; back !== start; back = cameFrom.get(back) as string)
					cycle.splice(1, 0, back);
				cycle.push(start);
				return cycle;
			}
			if (!cameFrom.has(target)) {
				cameFrom.set(target, file);
				queue.push(target);
			}
		}
	}
	throw new Error(`no cycle through ${start}`);
}

function packageSources(): Map<string, string> {
	const files = ROOTS.flatMap(typeScriptFiles).sort();
	return new Map(files.map((file) => [file, readFileSync(path.join(PACKAGE_ROOT, file), 'utf8')]));
}

describe('the import graph of nodes/ and credentials/', () => {
	const sources = packageSources();
	const graph = importGraph(sources);

	it('reads the modules and the imports between them', () => {
		expect(sources.size).toBeGreaterThan(50);
		const edgeCount = [...graph.edges.values()].reduce((sum, targets) => sum + targets.length, 0);
		expect(edgeCount).toBeGreaterThan(sources.size);
		expect(graph.unresolved).toEqual([]);
	});

	it('has no import cycle, also none through type-only imports or re-exports', () => {
		const cycles = findCycles(graph.edges).map((cycle) => cycle.join(' → '));
		expect(cycles).toEqual([]);
	});
});

describe('the cycle finder', () => {
	const graphOf = (files: Record<string, string>) =>
		importGraph(new Map(Object.entries(files))).edges;

	it('collects every kind of relative import, type-only ones too', () => {
		const text = [
			"import a from './a';",
			"import type { B } from './b';",
			"import { type C } from '../c';",
			"import './d';",
			"export { e } from './e';",
			"export type { F } from './f';",
			"export * from './g';",
			"export * as h from './h';",
			"import i = require('./i');",
			"const j = await import('./j');",
			"const k = require('./k');",
			"type L = typeof import('./l');",
			"import {\n\tm,\n\ttype N,\n} from './m';",
			"import n8n from 'n8n-workflow';",
		].join('\n');
		expect(specifiersOf('x/y.ts', text)).toEqual([
			'./a',
			'./b',
			'../c',
			'./d',
			'./e',
			'./f',
			'./g',
			'./h',
			'./i',
			'./j',
			'./k',
			'./l',
			'./m',
			'n8n-workflow',
		]);
	});

	it('resolves to a file, a .ts file, a .js specifier or a folder index', () => {
		const edges = graphOf({
			'n/a.ts': "import { b } from './b';\nimport { c } from './c.js';\nimport { d } from './d';",
			'n/b.ts': '',
			'n/c.ts': '',
			'n/d/index.ts': '',
		});
		expect(edges.get('n/a.ts')).toEqual(['n/b.ts', 'n/c.ts', 'n/d/index.ts']);
	});

	it('names a cycle made only of type imports and re-exports', () => {
		const edges = graphOf({
			'n/a.ts': "import type { B } from './b';",
			'n/b.ts': "export { c } from './sub/c';",
			'n/sub/c.ts': "import { type A } from '../a';",
			'n/free.ts': "import type { A } from './a';",
		});
		expect(findCycles(edges)).toEqual([['n/a.ts', 'n/b.ts', 'n/sub/c.ts', 'n/a.ts']]);
	});

	it('names a module importing itself, and each separate cycle once', () => {
		const edges = graphOf({
			'n/self.ts': "import type { Self } from './self';",
			'n/x.ts': "import { y } from './y';",
			'n/y.ts': "import { x } from './x';\nimport { z } from './z';",
			'n/z.ts': "import { x } from './x';",
		});
		expect(findCycles(edges)).toEqual([
			['n/self.ts', 'n/self.ts'],
			['n/x.ts', 'n/y.ts', 'n/x.ts'],
		]);
	});

	it('finds nothing in a graph without cycles', () => {
		const edges = graphOf({
			'n/a.ts': "import { b } from './b';\nimport { c } from './c';",
			'n/b.ts': "import { c } from './c';",
			'n/c.ts': '',
		});
		expect(findCycles(edges)).toEqual([]);
	});
});
