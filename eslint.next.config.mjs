// n8n's newest community-node rules, ahead of the published plugin `n8n-node lint` runs
// (test/tools/n8n-next-rules.mjs says which and how), and the house's size rules: a file and a function
// a person reads in one sitting (code lines, without blank lines and comments). n8n's own config
// (eslint.config.mjs) must stay unchanged for n8n's strict mode, so `npm run lint` runs these from this
// file over the shipped code.
import tseslint from 'typescript-eslint';

import { n8nNextRules } from './test/tools/n8n-next-rules.mjs';

export default tseslint.config({
	files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
	languageOptions: { parser: tseslint.parser },
	plugins: { 'n8n-next': n8nNextRules },
	rules: {
		'n8n-next/require-continue-on-fail': 'error',
		'n8n-next/node-operation-error-itemindex': 'error',
		'n8n-next/node-filename-against-convention': 'error',
		'n8n-next/cred-class-names': 'error',
		'max-lines': ['error', { max: 200, skipBlankLines: true, skipComments: true }],
		'max-lines-per-function': ['error', { max: 45, skipBlankLines: true, skipComments: true }],
	},
});
