// ESLint for test/ and benchmarks/: the tests, the harness, the sandbox, the local tools (npm start,
// npm run scan) and the benchmarks.
// They are .mts files, so `npx n8n-node lint` (n8n's config over **/*.ts) checks only what n8n
// loads: nodes/, credentials/ and package.json. This config is n8n's, applied to *.mts, with the
// community-node rules off: they guard code that n8n loads (no Node built-ins, timers, child
// processes, literal secrets or console), which is exactly what tests and local tools use.
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import { config } from '@n8n/node-cli/eslint';
import { defineConfig, globalIgnores } from 'eslint/config';

const communityNodeRulesOff = Object.fromEntries(
	Object.keys(n8nCommunityNodesPlugin.rules).map((rule) => [`@n8n/community-nodes/${rule}`, 'off']),
);

/** n8n's config objects, each aimed at the .mts files where it aimed at .ts ones. */
const forMts = config.map((entry) =>
	entry.files?.includes('**/*.ts') ? { ...entry, files: ['**/*.mts'] } : entry,
);

export default defineConfig(
	forMts,
	// test/package.json only marks this folder as ES modules; it is not the package n8n's rules describe.
	globalIgnores(['package.json', '**/package.json']),
	{
		files: ['**/*.mts'],
		rules: { ...communityNodeRulesOff, 'no-console': 'off' },
	},
);
