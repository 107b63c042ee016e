import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { packPackage } from '../n8n/communityPackage.mts';
import { runNpm } from '../n8n/install.mts';

/**
 * The community packages the n8n benchmarks install: this package (the working tree, or another
 * build of it given by BENCH_PACKAGE_DIR, e.g. an older commit's worktree) and a minimal trigger
 * the benchmark generates itself, n8n's floor for any trigger that is not built in.
 */

export const MINIMAL_PACKAGE = 'n8n-nodes-bench-minimal-trigger';
export const MINIMAL_TRIGGER = `${MINIMAL_PACKAGE}.minimalTrigger`;

/**
 * The tarball to install: `source` a .tgz (used as is), a package folder (built; packed here), or
 * undefined for this working tree (built by `npm run bench:n8n`).
 */
export async function packageTarball(source: string | undefined, scratch: string): Promise<string> {
	if (!source) return await packPackage(scratch);
	const resolved = path.resolve(source);
	if (resolved.endsWith('.tgz')) return resolved;
	if (!existsSync(path.join(resolved, 'dist')))
		throw new Error(`${resolved} has no dist/: build it first (npx tsc -p tsconfig.json)`);
	const output = await runNpm(['pack', '--quiet', '--pack-destination', scratch], resolved);
	const name = output.stdout.trim().split('\n').at(-1);
	if (!name) throw new Error(`npm pack printed no tarball name in ${resolved}`);
	return path.join(scratch, name);
}

/**
 * With BENCH_MINIMAL_CREDENTIAL=1 the minimal trigger also takes this package's credential (and
 * never reads it): n8n's floor for a trigger with a credential, which n8n checks for every
 * execution (`CredentialsPermissionChecker.check` in `WorkflowRunner.run`).
 */
export const MINIMAL_WITH_CREDENTIAL = process.env.BENCH_MINIMAL_CREDENTIAL === '1';

/** A trigger whose webhook() only hands n8n the body: the same webhook shape as the Performance Service Trigger. */
const MINIMAL_NODE_SOURCE = `'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
exports.MinimalTrigger = void 0;
class MinimalTrigger {
	constructor() {
		this.description = {
			displayName: 'Minimal Trigger',
			name: 'minimalTrigger',
			group: ['trigger'],
			version: [1, 1.1],
			defaultVersion: 1.1,
			description: 'Starts the workflow with the request body (benchmark floor)',
			defaults: { name: 'Minimal Trigger' },
			inputs: [],
			outputs: ['main'],
			webhooks: [
				{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', responseData: '', path: 'webhook' },
			],
			properties: [],${MINIMAL_WITH_CREDENTIAL ? "\n\t\t\tcredentials: [{ name: 'performanceServiceApi', required: true }]," : ''}
		};
	}
	async webhook() {
		const body = this.getBodyData();
		return { workflowData: [[{ json: body }]] };
	}
}
exports.MinimalTrigger = MinimalTrigger;
`;

/** Generates the minimal trigger package into `scratch` and packs it; returns the tarball. */
export async function minimalTriggerTarball(scratch: string): Promise<string> {
	const dir = path.join(scratch, MINIMAL_PACKAGE);
	const nodeDir = path.join(dir, 'dist', 'nodes', 'MinimalTrigger');
	mkdirSync(nodeDir, { recursive: true });
	writeFileSync(
		path.join(dir, 'package.json'),
		`${JSON.stringify(
			{
				name: MINIMAL_PACKAGE,
				version: '1.0.0',
				description: 'Benchmark floor: a trigger that only returns the request body',
				keywords: ['n8n-community-node-package'],
				license: 'MIT',
				files: ['dist'],
				n8n: {
					n8nNodesApiVersion: 1,
					credentials: [],
					nodes: ['dist/nodes/MinimalTrigger/MinimalTrigger.node.js'],
				},
			},
			null,
			2,
		)}\n`,
	);
	writeFileSync(path.join(nodeDir, 'MinimalTrigger.node.js'), MINIMAL_NODE_SOURCE);
	return await packageTarball(dir, scratch);
}
