import n8nCommunityNodes from '@n8n/eslint-plugin-community-nodes';
import tseslint from 'typescript-eslint';

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', '.n8n-local/**', 'test-artifacts/**', 'coverage/**'] },
	{
		files: ['**/*.ts'],
		extends: [tseslint.configs.recommended],
		rules: {
			'@typescript-eslint/no-explicit-any': 'error',
		},
	},
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts', 'package.json'],
		extends: [n8nCommunityNodes.configs.recommended],
	},
	{
		// typescript-estree reads .json as a JSON source file, which the package.json rules expect.
		files: ['package.json'],
		languageOptions: { parser: tseslint.parser },
	},
);
