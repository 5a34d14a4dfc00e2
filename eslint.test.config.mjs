// Lint for the code n8n's node rules do not cover: the sandbox, the real-n8n suite and the tools
// (.mts/.mjs), plus config files. Test code may use process, timers, node:http and the console,
// which n8n forbids in node code; the checks here are the ones that find bugs in any TypeScript.
// `npm run lint` runs n8n's own config (eslint.config.mjs, unchanged) and then this one.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', '.tmp/**'] },
	{
		files: ['test/**/*.mts', 'test/**/*.mjs', '*.mts', '*.mjs', '*.cjs', 'gulpfile.js'],
		extends: [js.configs.recommended, ...tseslint.configs.recommended],
		languageOptions: { globals: { ...globals.node } },
		rules: {
			eqeqeq: ['error', 'always'],
			'no-console': 'off',
			'prefer-const': 'error',
			'no-var': 'error',
			'no-throw-literal': 'error',
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
		},
	},
	{
		// Assertions read parsed JSON answers deep and freely; typing every shape would add nothing.
		files: ['test/**/*.test.mts', 'test/sandbox/harness.mts'],
		rules: { '@typescript-eslint/no-explicit-any': 'off' },
	},
	{
		files: ['*.cjs', 'gulpfile.js'],
		rules: { '@typescript-eslint/no-require-imports': 'off' },
	},
);
