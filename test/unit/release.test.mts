import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

import { PACKAGE_ROOT } from '../support/n8n/paths.mts';
import { missingDeclaredFiles, unexpectedPackageFiles } from '../support/release/packageFiles.mts';

interface Step {
	name?: string;
	uses?: string;
	run?: string;
	env?: Record<string, string>;
}
interface Job {
	permissions?: Record<string, string>;
	steps: Step[];
}
interface Workflow {
	on: Record<string, unknown>;
	permissions?: Record<string, string>;
	jobs: Record<string, Job>;
}

function readText(relativePath: string): string {
	return readFileSync(path.join(PACKAGE_ROOT, relativePath), 'utf8');
}

function readWorkflow(file: string): Workflow {
	return parse(readText(`.github/workflows/${file}`), {
		strict: true,
		uniqueKeys: true,
	}) as Workflow;
}

function onlyJob(workflow: Workflow): Job {
	const jobs = Object.values(workflow.jobs);
	expect(jobs).toHaveLength(1);
	return jobs[0];
}

/** Index of the first step whose command matches, -1 when none does. */
function stepRunning(job: Job, command: RegExp): number {
	return job.steps.findIndex((step) => step.run !== undefined && command.test(step.run));
}

const packageJson = JSON.parse(readText('package.json')) as {
	scripts: Record<string, string>;
	n8n: { strict: boolean };
};

describe('CI workflow (.github/workflows/ci.yml)', () => {
	const workflow = readWorkflow('ci.yml');

	it('runs on pushes and pull requests', () => {
		expect(Object.keys(workflow.on).sort()).toEqual(['pull_request', 'push']);
	});

	it('runs .ci/run', () => {
		expect(stepRunning(onlyJob(workflow), /^bash \.ci\/run$/m)).toBeGreaterThanOrEqual(0);
	});
});

describe('Publish workflow (.github/workflows/publish.yml)', () => {
	const workflow = readWorkflow('publish.yml');
	const job = onlyJob(workflow);

	it('runs on version tags only', () => {
		expect(workflow.on).toEqual({ push: { tags: ['v*.*.*'] } });
	});

	it('may mint the OIDC token that signs the provenance statement', () => {
		expect(job.permissions).toEqual({ 'id-token': 'write', contents: 'read' });
	});

	it('installs, builds, lints, scans and tests, then publishes with provenance in release mode', () => {
		const order = [
			/^npm ci\b/m,
			/^npm run build$/m,
			/^npm run lint$/m,
			/^node test\/support\/release\/scan\.mts$/m,
			/^npm test$/m,
		];
		const publish = stepRunning(job, /^npm publish --provenance\b/m);
		const indexes = order.map((command) => stepRunning(job, command));
		expect(indexes.every((index) => index >= 0)).toBe(true);
		expect([...indexes].sort((a, b) => a - b)).toEqual(indexes);
		expect(publish).toBeGreaterThan(indexes.at(-1)!);
		expect(job.steps[publish].env).toMatchObject({
			RELEASE_MODE: 'true',
			NPM_TOKEN: '${{ secrets.NPM_TOKEN }}',
		});
	});
});

describe("n8n's release gates in package.json and eslint.config.mjs", () => {
	it('refuses a hand-run npm publish the way n8n-node prerelease does', () => {
		expect(packageJson.scripts.prepublishOnly).toBe('n8n-node prerelease');
	});

	it("is eligible for n8n Cloud: strict mode and n8n's default ESLint config, unchanged", () => {
		// The same comparison `n8n-node cloud-support` and `n8n-node lint` make in strict mode.
		const require = createRequire(import.meta.url);
		const configsDir = path.dirname(require.resolve('@n8n/node-cli/eslint'));
		const template = readFileSync(
			path.join(configsDir, '../template/templates/shared/default/eslint.config.mjs'),
			'utf8',
		);
		const normalize = (text: string) => text.replace(/\s+/g, ' ').trim();
		expect(packageJson.n8n.strict).toBe(true);
		expect(normalize(readText('eslint.config.mjs'))).toBe(normalize(template));
	});
});

describe('what the tarball may hold', () => {
	it('accepts the compiled nodes and credentials, their assets and the manifest', () => {
		const shipped = [
			'package.json',
			'README.md',
			'CHANGELOG.md',
			'dist/credentials/SecurityServiceApi.credentials.js',
			'dist/credentials/security.svg',
			'dist/nodes/PerformanceService/PerformanceService.node.js',
			'dist/nodes/PerformanceService/PerformanceService.node.json',
			'dist/nodes/PerformanceService/__schema__/v2.0.0/site/get.json',
		];
		expect(unexpectedPackageFiles(shipped)).toEqual([]);
	});

	it('names declarations, source maps, sources and anything outside dist', () => {
		const extra = [
			'dist/credentials/SecurityServiceApi.credentials.d.ts',
			'dist/nodes/PerformanceService/PerformanceService.node.js.map',
			'nodes/PerformanceService/PerformanceService.node.ts',
			'test/unit/release.test.mts',
			'dist/tsconfig.tsbuildinfo',
		];
		expect(unexpectedPackageFiles(extra)).toEqual(extra);
	});

	it('names the nodes and credentials package.json declares that the tarball lacks', () => {
		const declared = {
			nodes: ['dist/nodes/A/A.node.js', 'dist/nodes/B/B.node.js'],
			credentials: ['dist/credentials/C.credentials.js'],
		};
		expect(missingDeclaredFiles(['package.json', 'dist/nodes/A/A.node.js'], declared)).toEqual([
			'dist/nodes/B/B.node.js',
			'dist/credentials/C.credentials.js',
		]);
	});
});
