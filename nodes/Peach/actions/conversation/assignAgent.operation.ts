import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { phoneNumberField } from '../../descriptions/contact';
import { requireText, validateEmail } from '../../helpers/fields';
import { outputOf } from '../../helpers/payload';
import { peachApiRequest } from '../../transport/request';
import type { ItemResult, OperationOption } from '../operation/node.type';
import { contactNameField, conversationContact } from './shared';
import { apiPath } from '../../transport/path';
import { recordIn } from '../item/itemParameters';

export const option: OperationOption = {
	name: 'Assign Agent',
	value: 'assignAgent',
	action: 'Assign an agent to a conversation',
	description: "Assign a person on the Peach team, by email, to a contact's conversation",
};

// Peach's page contradicts itself: its schema has `assign_agent: {agent_email,
// open_chat_on_assignment}`, its example `agent: {email}` with a top-level `open_chat_on_assignment`.
// The schema is the default; the example is offered as Body Format (docs/peach-api.md §14).
export const properties: INodeProperties[] = [
	phoneNumberField,
	contactNameField,
	{
		displayName: 'Agent Email',
		name: 'agentEmail',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. agent@example.com',
		description: 'The email of the Peach user who takes the conversation',
	},
	{
		displayName: 'Open Chat on Assignment',
		name: 'openChat',
		type: 'boolean',
		default: true,
		description: 'Whether Peach opens the chat for the agent when assigning it',
	},
	{
		displayName: 'Body Format',
		name: 'bodyFormat',
		type: 'options',
		options: [
			{
				name: 'Documented Schema',
				value: 'schema',
				description: 'Assign_agent: {agent_email, open_chat_on_assignment}',
			},
			{
				name: 'Documented Example',
				value: 'example',
				description: 'Agent: {email} and open_chat_on_assignment at the top',
			},
		],
		default: 'schema',
		description:
			"Peach's documentation shows two shapes for this request. Keep the schema unless your account answers with an error.",
	},
];

/** The body of `POST /api/v1/events` for `assign_agent`, in either documented shape. Pure. */
export function buildAssignAgentBody(input: {
	phoneNumber: unknown;
	contactName: unknown;
	agentEmail: unknown;
	openChat: boolean;
	bodyFormat: string;
}): IDataObject {
	const contact = conversationContact(input.phoneNumber, input.contactName);
	const email = validateEmail(
		'Agent Email',
		requireText(
			'Agent Email',
			input.agentEmail,
			'Enter the email of a user of your Peach account.',
		),
	);
	if (input.bodyFormat === 'example') {
		return {
			event_type: 'assign_agent',
			contact,
			agent: { email },
			open_chat_on_assignment: input.openChat,
		};
	}
	return {
		event_type: 'assign_agent',
		contact,
		assign_agent: { agent_email: email, open_chat_on_assignment: input.openChat },
	};
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const body = buildAssignAgentBody({
		phoneNumber: this.getNodeParameter('phoneNumber', itemIndex),
		contactName: this.getNodeParameter('contactName', itemIndex),
		agentEmail: this.getNodeParameter('agentEmail', itemIndex),
		openChat: this.getNodeParameter('openChat', itemIndex, true) as boolean,
		bodyFormat: this.getNodeParameter('bodyFormat', itemIndex, 'schema') as string,
	});
	return outputOf(
		await peachApiRequest.call(this, { method: 'POST', path: apiPath`/events`, body, itemIndex }),
	);
}

/** Changes to one record go one after another, in input order. */
export const recordOf = recordIn('phoneNumber', 'contact');
