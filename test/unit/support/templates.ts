import type { IDataObject } from 'n8n-workflow';

import { locator } from './harness';

/**
 * Template fixtures several test files share: each written once here (a fixture a file changes for
 * its own story stays in that file).
 */

/** An approved template whose body has one variable with an example: `first_name`. */
export const welcome: IDataObject = {
	id: 'wat_welcome',
	name: 'welcome',
	status: 'approved',
	components: [
		{ index: 0, component_type: 'body', value: "Hi {{first_name | example: 'Asha'}}, welcome!" },
	],
};

/**
 * Peach's answer to a read of the approval_request template Send and Wait uses: a body with the
 * message and the answer link, each with an example.
 */
export const approvalRequestRead = {
	statusCode: 200,
	body: {
		id: 'wat_approval',
		name: 'approval_request',
		status: 'approved',
		components: [
			{
				component_type: 'body',
				value:
					"{{message | example: 'Refund?'}} Answer: {{approval_link | example: 'https://x.test'}}",
			},
		],
	},
};

/** Send `welcome` to each item's `phone`, its `first_name` from the item's `name`. */
export const sendWelcomeByName = {
	resource: 'templateMessage',
	operation: 'send',
	phoneNumber: '={{ $json.phone }}',
	templateId: locator('wat_welcome'),
	variablesInput: 'fields',
	variables: { values: [{ key: 'first_name', value: '={{ $json.name }}' }] },
};

/** Broadcast → Launch "Spring sale" of wat_welcome to the contact `phone`, at once; `extra` on top. */
export const springSale = (phone: string, extra: Record<string, unknown> = {}) => ({
	resource: 'broadcast',
	operation: 'launch',
	name: 'Spring sale',
	templateId: locator('wat_welcome'),
	variablesInput: 'fields',
	variables: {},
	recipients: 'items',
	contactPhoneNumber: phone,
	deliveryMode: 'instant',
	...extra,
});
