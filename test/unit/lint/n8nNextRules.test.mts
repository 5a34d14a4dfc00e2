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
			name: 'a node whose execute() passes this.continueOnFail() to the router',
			code: "class Peach { description = { name: 'peach' }; async execute() { return await router.call(this, this.continueOnFail()); } }",
		},
		{
			name: 'a class that is not a node (no description) is not looked at',
			code: 'class Helper { async execute() { return 1; } }',
		},
	],
	invalid: [
		{
			name: 'a node whose execute() never reads this.continueOnFail()',
			code: "class Peach { description = { name: 'peach' }; async execute() { return await router.call(this); } }",
			errors: [{ messageId: 'missing' }],
		},
	],
});

tester.run('node-operation-error-itemindex', rules['node-operation-error-itemindex'], {
	valid: [
		{
			name: 'a NodeOperationError thrown with the item index in scope names it',
			code: "function prepare(context, itemIndex) { throw new NodeOperationError(context.getNode(), 'bad', { itemIndex }); }",
		},
		{
			name: 'a NodeApiError thrown with the item index in scope names it',
			code: "function prepare(context, itemIndex) { throw new NodeApiError(context.getNode(), {}, { itemIndex: itemIndex, description: 'x' }); }",
		},
		{
			name: 'an error thrown with no item in scope (a webhook, a credential test) has nothing to name',
			code: "function webhook(context) { throw new NodeOperationError(context.getNode(), 'bad'); }",
		},
	],
	invalid: [
		{
			name: 'a NodeOperationError thrown with the item index in scope that does not name it',
			code: "function prepare(context, itemIndex) { throw new NodeOperationError(context.getNode(), 'bad'); }",
			errors: [{ messageId: 'missing' }],
		},
		{
			name: 'a NodeApiError thrown in a loop over item indexes that does not name the index',
			code: "function run(context) { for (const itemIndex of [0, 1]) { if (!ok) throw new NodeApiError(context.getNode(), {}, { description: 'x' }); } }",
			errors: [{ messageId: 'missing' }],
		},
	],
});

tester.run('node-filename-against-convention', rules['node-filename-against-convention'], {
	valid: [
		{
			name: 'the Peach node in nodes/Peach/Peach.node.ts',
			code: "class Peach { description = { name: 'peach' }; }",
			filename: 'nodes/Peach/Peach.node.ts',
		},
		{
			name: 'the Peach Trigger node in nodes/PeachTrigger/PeachTrigger.node.ts',
			code: "class PeachTrigger { description = { name: 'peachTrigger' }; }",
			filename: 'nodes/PeachTrigger/PeachTrigger.node.ts',
		},
	],
	invalid: [
		{
			name: 'the Peach node in a file named for another class',
			code: "class Peach { description = { name: 'peach' }; }",
			filename: 'nodes/Peach/PeachNode.node.ts',
			errors: [{ messageId: 'mismatch' }],
		},
	],
});

tester.run('cred-class-names', rules['cred-class-names'], {
	valid: [
		{
			name: 'a credential class ending in Api, its name starting lowercase and ending in Api',
			code: "class PeachMessagingApi { name = 'peachMessagingApi'; }",
			filename: 'credentials/PeachMessagingApi.credentials.ts',
		},
	],
	invalid: [
		{
			name: 'a credential class not ending in Api, its name starting with a capital',
			code: "class PeachSecret { name = 'PeachSecret'; }",
			filename: 'credentials/PeachSecret.credentials.ts',
			errors: [{ messageId: 'className' }, { messageId: 'nameField' }],
		},
	],
});
