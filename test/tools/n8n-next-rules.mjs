/**
 * n8n's newest community-node lint rules, not yet in the published @n8n/eslint-plugin-community-nodes
 * (0.32.0, the version `n8n-node lint` runs), written as ESLint rules so `npm run lint` holds the code
 * to them now (eslint.next.config.mjs). Each follows the rule's documentation in n8n's repository
 * (packages/@n8n/eslint-plugin-community-nodes/docs/rules/<name>.md); where ours is stricter it says so.
 */
import { basename } from 'node:path';

const ERROR_CLASSES = new Set(['NodeOperationError', 'NodeApiError']);

/** Whether `name` is a variable (or parameter) visible at `node`. */
function inScope(sourceCode, node, name) {
	for (let scope = sourceCode.getScope(node); scope; scope = scope.upper)
		if (scope.set.has(name)) return true;
	return false;
}

/** The `description = { … }` object of a node class, if the class has one. */
function descriptionOf(classBody) {
	const property = classBody.body.find(
		(member) =>
			member.type === 'PropertyDefinition' &&
			member.key.type === 'Identifier' &&
			member.key.name === 'description' &&
			member.value?.type === 'ObjectExpression',
	);
	return property?.value;
}

function stringProperty(object, key) {
	const property = object?.properties.find(
		(entry) =>
			entry.type === 'Property' &&
			((entry.key.type === 'Identifier' && entry.key.name === key) ||
				(entry.key.type === 'Literal' && entry.key.value === key)),
	);
	return property?.value.type === 'Literal' && typeof property.value.value === 'string'
		? property.value
		: undefined;
}

/** require-continue-on-fail: a node class's execute() calls this.continueOnFail() itself. */
const requireContinueOnFail = {
	meta: {
		type: 'problem',
		docs: { description: 'Require this.continueOnFail() in the execute() method of a node class' },
		messages: {
			missing:
				"execute() must call this.continueOnFail() itself (n8n's require-continue-on-fail): read it there and pass it on",
		},
		schema: [],
	},
	create(context) {
		return {
			'ClassBody > MethodDefinition[key.name="execute"]'(method) {
				if (!descriptionOf(method.parent)) return;
				const source = context.sourceCode.getText(method.value.body);
				if (!/\bthis\.continueOnFail\(\)/.test(source))
					context.report({ node: method.key, messageId: 'missing' });
			},
		};
	},
};

/**
 * node-operation-error-itemindex: an error made for an item names the item. n8n's rule looks inside
 * loops over this.getInputData(); ours is stricter: wherever a variable `itemIndex` is in scope (every
 * operation's execute, prepare and deliver has one), a NodeOperationError or NodeApiError must pass
 * `{ itemIndex }` in its options.
 */
const nodeOperationErrorItemIndex = {
	meta: {
		type: 'problem',
		docs: {
			description: 'Require { itemIndex } in NodeOperationError / NodeApiError options for an item',
		},
		messages: {
			missing:
				"{{ name }} made where itemIndex is in scope must pass { itemIndex } in its options (n8n's node-operation-error-itemindex)",
		},
		schema: [],
	},
	create(context) {
		return {
			NewExpression(node) {
				if (node.callee.type !== 'Identifier' || !ERROR_CLASSES.has(node.callee.name)) return;
				if (!inScope(context.sourceCode, node, 'itemIndex')) return;
				const options = node.arguments[2];
				const named =
					options?.type === 'ObjectExpression' &&
					options.properties.some(
						(property) =>
							property.type === 'Property' &&
							property.key.type === 'Identifier' &&
							property.key.name === 'itemIndex',
					);
				if (!named)
					context.report({ node, messageId: 'missing', data: { name: node.callee.name } });
			},
		};
	},
};

/** node-filename-against-convention: Foo.node.ts holds the node whose description.name is foo. */
const nodeFilenameAgainstConvention = {
	meta: {
		type: 'problem',
		docs: { description: 'Node file name must match the node description.name' },
		messages: {
			mismatch:
				'The node named "{{ name }}" must live in {{ expected }} (n8n\'s node-filename-against-convention)',
		},
		schema: [],
	},
	create(context) {
		const file = basename(context.filename);
		if (!file.endsWith('.node.ts')) return {};
		return {
			ClassBody(body) {
				const name = stringProperty(descriptionOf(body), 'name');
				if (!name) return;
				const expected = `${name.value.charAt(0).toUpperCase()}${name.value.slice(1)}.node.ts`;
				if (file !== expected)
					context.report({
						node: name,
						messageId: 'mismatch',
						data: { name: name.value, expected },
					});
			},
		};
	},
};

/**
 * cred-class-name-suffix and cred-class-name-field-conventions: a credential class is named …Api,
 * and its `name` ends with Api and starts with a lowercase letter.
 */
const credentialNames = {
	meta: {
		type: 'problem',
		docs: { description: 'Credential class names and name fields end with Api' },
		messages: {
			className: "The credential class {{ name }} must end with Api (n8n's cred-class-name-suffix)",
			nameField:
				'The credential name "{{ name }}" must start with a lowercase letter and end with Api (n8n\'s cred-class-name-field-conventions)',
		},
		schema: [],
	},
	create(context) {
		if (!context.filename.endsWith('.credentials.ts')) return {};
		return {
			ClassDeclaration(node) {
				if (node.id && !node.id.name.endsWith('Api'))
					context.report({ node: node.id, messageId: 'className', data: { name: node.id.name } });
				const field = node.body.body.find(
					(member) =>
						member.type === 'PropertyDefinition' &&
						member.key.type === 'Identifier' &&
						member.key.name === 'name' &&
						member.value?.type === 'Literal',
				);
				const value = field?.value.value;
				if (typeof value === 'string' && !/^[a-z].*Api$/.test(value))
					context.report({ node: field, messageId: 'nameField', data: { name: value } });
			},
		};
	},
};

export const n8nNextRules = {
	rules: {
		'require-continue-on-fail': requireContinueOnFail,
		'node-operation-error-itemindex': nodeOperationErrorItemIndex,
		'node-filename-against-convention': nodeFilenameAgainstConvention,
		'cred-class-names': credentialNames,
	},
};
