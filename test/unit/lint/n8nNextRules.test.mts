import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, it } from 'vitest';

import { n8nNextRules } from '../../tools/n8n-next-rules.mjs';

/**
 * The lint rules `npm run lint` adds ahead of n8n's published plugin (eslint.next.config.mjs): each
 * refuses what n8n's newest rule refuses and lets the node's own shapes through.
 */
RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser } });
const { rules } = n8nNextRules;

tester.run('require-continue-on-fail', rules['require-continue-on-fail'], {
	valid: [
		{
			code: "class Peach { description = { name: 'peach' }; async execute() { return await router.call(this, this.continueOnFail()); } }",
		},
		// Not a node class (no description): not looked at.
		{ code: 'class Helper { async execute() { return 1; } }' },
	],
	invalid: [
		{
			code: "class Peach { description = { name: 'peach' }; async execute() { return await router.call(this); } }",
			errors: [{ messageId: 'missing' }],
		},
	],
});

tester.run('node-operation-error-itemindex', rules['node-operation-error-itemindex'], {
	valid: [
		{
			code: "function prepare(context, itemIndex) { throw new NodeOperationError(context.getNode(), 'bad', { itemIndex }); }",
		},
		{
			code: "function prepare(context, itemIndex) { throw new NodeApiError(context.getNode(), {}, { itemIndex: itemIndex, description: 'x' }); }",
		},
		// No item in scope (a webhook, a credential test): nothing to name.
		{
			code: "function webhook(context) { throw new NodeOperationError(context.getNode(), 'bad'); }",
		},
	],
	invalid: [
		{
			code: "function prepare(context, itemIndex) { throw new NodeOperationError(context.getNode(), 'bad'); }",
			errors: [{ messageId: 'missing' }],
		},
		{
			code: "function run(context) { for (const itemIndex of [0, 1]) { if (!ok) throw new NodeApiError(context.getNode(), {}, { description: 'x' }); } }",
			errors: [{ messageId: 'missing' }],
		},
	],
});

tester.run('node-filename-against-convention', rules['node-filename-against-convention'], {
	valid: [
		{
			code: "class Peach { description = { name: 'peach' }; }",
			filename: 'nodes/Peach/Peach.node.ts',
		},
		{
			code: "class PeachTrigger { description = { name: 'peachTrigger' }; }",
			filename: 'nodes/PeachTrigger/PeachTrigger.node.ts',
		},
	],
	invalid: [
		{
			code: "class Peach { description = { name: 'peach' }; }",
			filename: 'nodes/Peach/PeachNode.node.ts',
			errors: [{ messageId: 'mismatch' }],
		},
	],
});

tester.run('cred-class-names', rules['cred-class-names'], {
	valid: [
		{
			code: "class PeachMessagingApi { name = 'peachMessagingApi'; }",
			filename: 'credentials/PeachMessagingApi.credentials.ts',
		},
	],
	invalid: [
		{
			code: "class PeachSecret { name = 'PeachSecret'; }",
			filename: 'credentials/PeachSecret.credentials.ts',
			errors: [{ messageId: 'className' }, { messageId: 'nameField' }],
		},
	],
});
