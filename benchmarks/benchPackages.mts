import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { packPackage } from '../test/support/n8n/communityPackage.mts';
import { runNpm } from '../test/support/n8n/install.mts';

/**
 * The community packages the n8n benchmarks install: this package (the working tree, or another
 * build of it given by BENCH_PACKAGE_DIR, e.g. an older commit's worktree), a minimal trigger
 * the benchmark generates itself, n8n's floor for any trigger that is not built in, and with
 * BENCH_BASELINE_DIR the webhook trigger of another build under its own package name.
 */

export const MINIMAL_PACKAGE = 'n8n-nodes-bench-minimal-trigger';
export const MINIMAL_TRIGGER = `${MINIMAL_PACKAGE}.minimalTrigger`;
export const DURABLE_FLOOR_TRIGGER = `${MINIMAL_PACKAGE}.durableFloorTrigger`;
export const REMEMBERING_FLOOR_TRIGGER = `${MINIMAL_PACKAGE}.rememberingFloorTrigger`;

/** Another build's webhook trigger, registered beside this one's under another package name. */
export const BASELINE_PACKAGE = 'n8n-nodes-site-performance-security-baseline';
export const BASELINE_TRIGGER = `${BASELINE_PACKAGE}.performanceServiceTrigger`;
const TRIGGER_FILE = 'dist/nodes/PerformanceService/PerformanceServiceTrigger.node.js';

/**
 * What the remembering floor keeps: 5,000 digests (the trigger's cap) of 12 base64url characters
 * (72 bits, the fewest that keep a false duplicate out of reach), with nothing around them.
 */
const FLOOR_DIGEST_CHARS = 12;
const REMEMBERING_FLOOR_CHARS = 5_000 * FLOOR_DIGEST_CHARS;

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

interface GeneratedTrigger {
	/** Class and file name; the node name is the same in camel case. */
	className: string;
	displayName: string;
	description: string;
	withCredential: boolean;
	/**
	 * Code run when n8n reads the answer, that is once the execution exists (n8nWebhookContract.ts,
	 * A2-A4), with `memory` the node's static data and `body` the request body; without it,
	 * `webhook()` only returns the body.
	 */
	onRecorded?: string;
}

/** The body of `webhook()`: the body as one item, and where asked, `onRecorded` as the trigger writes its events. */
function webhookBody(onRecorded: string | undefined): string {
	if (onRecorded === undefined) return 'return { workflowData: [[{ json: body }]] };';
	return `const memory = this.getWorkflowStaticData('node');
		const result = { workflowData: [[{ json: body }]] };
		Object.defineProperty(result, 'webhookResponse', {
			enumerable: true,
			get() {
				${onRecorded}
				return { received: true };
			},
		});
		return result;`;
}

/** The source of a trigger with the same webhook shape as the Performance Service Trigger. */
function triggerSource(node: GeneratedTrigger): string {
	const name = node.className[0].toLowerCase() + node.className.slice(1);
	const credentials = node.withCredential
		? "\n\t\t\tcredentials: [{ name: 'performanceServiceApi', required: true }],"
		: '';
	return `'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
class ${node.className} {
	constructor() {
		this.description = {
			displayName: '${node.displayName}',
			name: '${name}',
			group: ['trigger'],
			version: 1.1,
			description: '${node.description}',
			defaults: { name: '${node.displayName}' },
			inputs: [],
			outputs: ['main'],
			webhooks: [
				{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', responseData: '', path: 'webhook' },
			],
			properties: [],${credentials}
		};
	}
	async webhook() {
		const body = this.getBodyData();
		${webhookBody(node.onRecorded)}
	}
}
exports.${node.className} = ${node.className};
`;
}

const GENERATED_TRIGGERS: GeneratedTrigger[] = [
	{
		// webhook() only hands n8n the body.
		className: 'MinimalTrigger',
		displayName: 'Minimal Trigger',
		description: 'Starts the workflow with the request body (benchmark floor)',
		withCredential: MINIMAL_WITH_CREDENTIAL,
	},
	{
		// The floor for what the Performance Service Trigger promises: the minimal trigger plus what
		// any trigger that keeps those promises needs from n8n. A credential (n8n checks it before
		// every execution), and each event remembered in the static data, the only store n8n gives
		// webhook(), written when n8n reads the answer so that n8n saves it once the execution
		// exists: one small value, one save per delivery.
		className: 'DurableFloorTrigger',
		displayName: 'Durable Floor Trigger',
		description: 'Starts the workflow with the request body and saves its id (benchmark floor)',
		withCredential: true,
		onRecorded: 'memory.last = String(body.id);',
	},
	{
		// The durable floor for a trigger that remembers 5,000 events: the same save, of the fewest
		// bytes those events need, from the first delivery on; one digest out and one in per
		// delivery, with no lookup. What n8n charges for carrying them is all it measures.
		className: 'RememberingFloorTrigger',
		displayName: 'Remembering Floor Trigger',
		description:
			'Starts the workflow with the request body and keeps 5,000 digests (benchmark floor)',
		withCredential: true,
		onRecorded: `const crypto = require('node:crypto');
				const kept = typeof memory.events === 'string' && memory.events.length === ${REMEMBERING_FLOOR_CHARS}
					? memory.events
					: crypto.randomBytes(${(REMEMBERING_FLOOR_CHARS * 3) / 4}).toString('base64url');
				const digest = crypto.createHash('sha256').update(String(body.id)).digest('base64url');
				memory.events = kept.slice(${FLOOR_DIGEST_CHARS}) + digest.slice(0, ${FLOOR_DIGEST_CHARS});`,
	},
];

/** Writes a community package's package.json into `dir` (its files already in dist/) and packs it; returns the tarball. */
async function packGenerated(
	dir: string,
	name: string,
	description: string,
	nodes: string[],
	scratch: string,
): Promise<string> {
	writeFileSync(
		path.join(dir, 'package.json'),
		`${JSON.stringify(
			{
				name,
				version: '1.0.0',
				description,
				keywords: ['n8n-community-node-package'],
				license: 'MIT',
				files: ['dist'],
				n8n: { n8nNodesApiVersion: 1, credentials: [], nodes },
			},
			null,
			2,
		)}\n`,
	);
	return await packageTarball(dir, scratch);
}

/** Generates the benchmark's trigger package (the minimal trigger and both durable floors) into `scratch` and packs it; returns the tarball. */
export async function minimalTriggerTarball(scratch: string): Promise<string> {
	const dir = path.join(scratch, MINIMAL_PACKAGE);
	const nodeFile = (node: GeneratedTrigger): string =>
		`dist/nodes/${node.className}/${node.className}.node.js`;
	for (const node of GENERATED_TRIGGERS) {
		mkdirSync(path.join(dir, path.dirname(nodeFile(node))), { recursive: true });
		writeFileSync(path.join(dir, nodeFile(node)), triggerSource(node));
	}
	return await packGenerated(
		dir,
		MINIMAL_PACKAGE,
		'Benchmark floors: triggers that return the request body',
		GENERATED_TRIGGERS.map(nodeFile),
		scratch,
	);
}

/**
 * The webhook trigger of the build in `source` (a built package folder, e.g. a worktree of an
 * older commit) as the package BASELINE_PACKAGE: its dist/ with only that node declared, so that
 * the credential type stays this build's.
 */
export async function baselineTarball(source: string, scratch: string): Promise<string> {
	const from = path.resolve(source, TRIGGER_FILE);
	if (!existsSync(from)) throw new Error(`${from} is missing: build ${source} first`);
	const dir = path.join(scratch, BASELINE_PACKAGE);
	cpSync(path.resolve(source, 'dist'), path.join(dir, 'dist'), { recursive: true });
	return await packGenerated(
		dir,
		BASELINE_PACKAGE,
		`The webhook trigger of ${path.resolve(source)}, to measure beside this build`,
		[TRIGGER_FILE],
		scratch,
	);
}
