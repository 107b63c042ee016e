/**
 * The import graph of nodes/ and credentials/, checked by dependency-cruiser: no import cycle (type-only
 * imports and re-exports count), and every import names a file that exists.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { cruise, type ICruiseResult, type IFlattenedRuleSet } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';

import { PACKAGE_ROOT } from '../support/n8n/paths.mts';

const RULES: IFlattenedRuleSet = {
	forbidden: [
		{ name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
		{ name: 'not-to-unresolvable', severity: 'error', from: {}, to: { couldNotResolve: true } },
	],
};

/** Cruises `folders` of `baseDir`; each violation as `rule: a → b → … → a` or `rule: from → to`. */
async function importGraph(
	baseDir: string,
	folders: string[],
): Promise<{ result: ICruiseResult; violations: string[] }> {
	const { output } = await cruise(folders, {
		baseDir,
		ruleSet: RULES,
		validate: true,
		// Type-only imports are dependencies too (TypeScript drops them when it compiles).
		tsPreCompilationDeps: true,
		doNotFollow: { path: 'node_modules' },
	});
	const result = output as ICruiseResult;
	const violations = result.summary.violations.map(({ rule, from, to, cycle }) =>
		cycle
			? `${rule.name}: ${[from, ...cycle.map((step) => step.name)].join(' → ')}`
			: `${rule.name}: ${from} → ${to}`,
	);
	return { result, violations };
}

describe('the import graph of nodes/ and credentials/', () => {
	it('reads the modules, has no import cycle and no import of a missing file', async () => {
		const { result, violations } = await importGraph(PACKAGE_ROOT, ['nodes', 'credentials']);
		const local = result.modules.filter((module) => /^(nodes|credentials)\//.test(module.source));
		expect(local.length).toBeGreaterThan(50);
		const localEdges = local.flatMap((module) =>
			module.dependencies.filter((dependency) => dependency.dependencyTypes.includes('local')),
		);
		expect(localEdges.length).toBeGreaterThan(local.length);
		expect(violations).toEqual([]);
	});
});

describe('the import graph check', () => {
	const dir = mkdtempSync(path.join(os.tmpdir(), 'import-graph-'));
	afterAll(() => rmSync(dir, { recursive: true, force: true }));

	function tree(name: string, files: Record<string, string>): string {
		for (const [file, text] of Object.entries(files)) {
			const target = path.join(dir, name, file);
			mkdirSync(path.dirname(target), { recursive: true });
			writeFileSync(target, text);
		}
		return name;
	}

	it('names a cycle made only of type imports and re-exports', async () => {
		const root = tree('typeCycle', {
			'a.ts': "import type { C } from './b';\nexport type A = C;\n",
			'b.ts': "export { type C } from './sub/c';\n",
			'sub/c.ts': "import { type A } from '../a';\nexport type C = A | 1;\n",
			'free.ts': "import type { A } from './a';\nexport type Free = A;\n",
		});
		const { violations } = await importGraph(dir, [root]);
		expect(violations).toContain(
			'no-circular: typeCycle/a.ts → typeCycle/b.ts → typeCycle/sub/c.ts → typeCycle/a.ts',
		);
	});

	it('follows every kind of import: require, dynamic import, typeof import, export *', async () => {
		const root = tree('everyKind', {
			'a.ts': "import b = require('./b');\nexport const a = b;\n",
			'b.ts': "export const b = () => import('./c');\n",
			'c.ts': "export const c = require('./d');\n",
			'd.ts': "export type D = typeof import('./e');\n",
			'e.ts': "export * from './a';\n",
		});
		const { violations } = await importGraph(dir, [root]);
		expect(violations).toEqual([
			'no-circular: everyKind/a.ts → everyKind/b.ts → everyKind/c.ts → everyKind/d.ts → everyKind/e.ts → everyKind/a.ts',
		]);
	});

	it('names a module importing itself, and an import of a missing file', async () => {
		const root = tree('selfAndMissing', {
			'self.ts': "import type { Self } from './self';\nexport interface Self { next?: Self }\n",
			'x.ts': "import { gone } from './gone';\nexport const x = gone;\n",
		});
		const { violations } = await importGraph(dir, [root]);
		expect(violations).toEqual(
			expect.arrayContaining([
				'no-circular: selfAndMissing/self.ts → selfAndMissing/self.ts',
				'not-to-unresolvable: selfAndMissing/x.ts → ./gone',
			]),
		);
	});

	it('finds nothing in a tree without cycles', async () => {
		const root = tree('acyclic', {
			'a.ts': "import { b } from './b';\nimport { c } from './c';\nexport const a = b + c;\n",
			'b.ts': "import { c } from './c';\nexport const b = c;\n",
			'c.ts': 'export const c = 1;\n',
		});
		const { violations } = await importGraph(dir, [root]);
		expect(violations).toEqual([]);
	});
});
