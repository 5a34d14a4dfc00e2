import type { IDataObject } from 'n8n-workflow';

import { type FakeResponse, locator } from './harness';

/**
 * Template fixtures several test files share: each written once here (a fixture a file changes for
 * its own story stays in that file).
 */

/** A component of a template as Peach lists it (its index is its place in the template). */
type Part = IDataObject & { component_type: string };

export const body = (value: string): Part => ({ component_type: 'body', value });
export const header = (value: string, dataType = 'text'): Part => ({
	component_type: 'header',
	data_type: dataType,
	value,
});
export const footer = (value: string): Part => ({ component_type: 'footer', value });
export const urlButton = (value: string, name?: string): Part => ({
	component_type: 'buttons',
	sub_type: 'url',
	...(name === undefined ? {} : { name }),
	value,
});

/** An approved template as Peach describes it: `parts` in order, each indexed, text unless said. */
export const approvedTemplate = (id: string, name: string, ...parts: Part[]): IDataObject => ({
	id,
	name,
	status: 'approved',
	components: parts.map((part, index) => ({ index, data_type: 'text', ...part })),
});

/** Peach's answer to a read of `template`. */
export const readOf = (template: IDataObject): FakeResponse => ({
	statusCode: 200,
	body: template,
});

/** The body of wat_welcome: one variable with an example, `first_name`. */
export const WELCOME_BODY = "Hi {{first_name | example: 'Asha'}}, welcome!";

/**
 * wat_welcome, the template most sends use, made of `parts` (by default its body alone): a test that
 * needs a header, a footer or a button around the body names them.
 */
export const welcomeWith = (...parts: Part[]): IDataObject =>
	approvedTemplate('wat_welcome', 'welcome', ...(parts.length > 0 ? parts : [body(WELCOME_BODY)]));

/** An approved template whose body has one variable with an example: `first_name`. */
export const welcome = welcomeWith();

/** wat_approval, the template Send and Wait asks with: one body, `text`. */
export const approvalWith = (text: string): IDataObject =>
	approvedTemplate('wat_approval', 'approval_request', body(text));

/**
 * The approval_request template Send and Wait uses: a body with the message and the answer link,
 * each with an example.
 */
export const approvalRequest = approvalWith(
	"{{message | example: 'Refund?'}} Answer: {{approval_link | example: 'https://x.test'}}",
);

/** Peach's answer to a read of `approvalRequest`. */
export const approvalRequestRead = readOf(approvalRequest);

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
