// ESLint for test/: the tests, the harness, the sandbox and the local tools (npm start, npm run scan).
// `npm run lint` looks up the config nearest to each file, so nodes/ and credentials/ are checked by
// the root eslint.config.mjs alone: n8n's own config, unchanged. This folder builds on the same
// config; n8n's community-node rules guard code that n8n loads (no Node built-ins, timers, child
// processes, literal secrets or console), and that is exactly what tests and local tools use, so
// those rules are off here and only here.
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import { config } from '@n8n/node-cli/eslint';
import { defineConfig, globalIgnores } from 'eslint/config';

const communityNodeRulesOff = Object.fromEntries(
	Object.keys(n8nCommunityNodesPlugin.rules).map((rule) => [`@n8n/community-nodes/${rule}`, 'off']),
);

export default defineConfig(
	config,
	// test/package.json only marks this folder as ES modules; it is not the package n8n's rules describe.
	globalIgnores(['package.json']),
	{
		files: ['**/*.ts'],
		rules: { ...communityNodeRulesOff, 'no-console': 'off' },
	},
);
