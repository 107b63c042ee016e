/**
 * `pretest` and `prestart`: `node test/support/setup/checkSetup.mjs <package>...` says in one line
 * what to do first when the dev dependencies are not installed (instead of `vitest: not found`) or
 * when Node is too old for the .ts scripts (instead of ERR_UNKNOWN_FILE_EXTENSION and a stack trace).
 * Plain JavaScript without dependencies, so it runs on any Node the machine has.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Node runs .ts files without a flag from 22.18 (CI and .ci/node24.sh use 24). */
const MINIMUM_NODE = [22, 18];

const root = fileURLToPath(new URL('../../../', import.meta.url));
const packages = process.argv.slice(2);

const [major, minor] = process.versions.node.split('.').map(Number);
const nodeTooOld =
	major < MINIMUM_NODE[0] || (major === MINIMUM_NODE[0] && minor < MINIMUM_NODE[1]);
const missing = packages.filter((name) => !existsSync(`${root}node_modules/${name}/package.json`));
const noModules = !existsSync(`${root}node_modules`);

const steps = [];
if (nodeTooOld)
	steps.push(
		`Node ${process.version} is older than ${MINIMUM_NODE.join('.')}, which the scripts need: run \`source .ci/node24.sh\` first (it puts Node 24 on PATH)`,
	);
if (noModules || missing.length > 0) {
	const what = noModules ? 'node_modules is missing' : `${missing.join(', ')} not installed`;
	// Native modules are built for the Node that installs them: switch Node before installing.
	steps.push(`${what}: run \`npm ci\`${nodeTooOld ? ' after that' : ' first'}`);
}
if (steps.length > 0) {
	console.error(steps.join('; '));
	process.exit(1);
}
