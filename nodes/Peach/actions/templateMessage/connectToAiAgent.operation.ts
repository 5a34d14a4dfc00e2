import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { contactFieldsCollection, phoneNumberField } from '../../descriptions/contact';
import { additionalFieldsCollection, businessPhoneNumberField } from '../../descriptions/fields';
import { headerMediaFields } from '../../descriptions/headerMedia';
import { locator } from '../../descriptions/locator';
import { templateVariablesFields } from '../../descriptions/templateVariables';
import { contactFrom } from '../../helpers/contact';
import { isSet, requireText } from '../../helpers/fields';
import { PeachInputError } from '../../helpers/inputError';
import { normalizeBusinessPhoneNumber } from '../../helpers/phone';
import { liquidValuesOf, parameterOfItem, variablesOfItem } from '../item/itemParameters';
import type { DeliveringOperation, OperationOption } from '../operation/node.type';
import type { TemplateMessagePlan } from './shared';
import {
	checkAgainstTemplate,
	deliverTemplateMessage,
	previewTemplateMessage,
	recipientOfTemplateMessage,
	sameTemplateMessage,
	sightOfTemplateMessage,
	uploadHeaderFiles,
	witnessOfTemplateMessage,
} from './shared';

const option: OperationOption = {
	name: 'Connect to AI Agent',
	value: 'connectToAiAgent',
	action: 'Connect a contact to an AI agent',
	description:
		"Send an approved template to a contact and hand the contact's replies to a Peach AI agent",
};

const properties: INodeProperties[] = [
	phoneNumberField,
	locator('template', { required: true, description: 'The approved WhatsApp template to send' }),
	...templateVariablesFields(),
	...headerMediaFields(),
	{
		displayName: 'AI Agent ID',
		name: 'aiAgentId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. aiflw_1234abcd',
		description:
			'The AI agent that takes over the conversation, from the Peach web app (Peach has no API that lists AI agents)',
	},
	contactFieldsCollection(['email', 'name']),
	additionalFieldsCollection([businessPhoneNumberField()]),
];

/** The body of `POST /api/v1/events` for `connect_to_ai_agent` (liquid_values is required here). Pure. */
export function buildConnectToAiAgentBody(input: {
	phoneNumber: unknown;
	templateId: unknown;
	liquidValues: IDataObject | undefined;
	aiAgentId: unknown;
	contactFields: IDataObject;
	businessPhoneNumber?: unknown;
}): IDataObject {
	const templateMessage: IDataObject = {
		whats_app_template_id: requireText(
			'Template',
			input.templateId,
			'Pick an approved template From List, or enter its ID By ID (e.g. wat_1234abcd).',
		),
		liquid_values: input.liquidValues ?? {},
	};
	if (isSet(input.businessPhoneNumber)) {
		templateMessage.business_phone_number = normalizeBusinessPhoneNumber(
			'Business Phone Number',
			input.businessPhoneNumber,
		);
	}
	const aiAgentId = requireText(
		'AI Agent ID',
		input.aiAgentId,
		'Copy the AI agent ID (aiflw_...) from the Peach web app.',
	);
	if (/\s/.test(aiAgentId)) {
		throw new PeachInputError(
			'AI Agent ID',
			aiAgentId,
			'has spaces',
			'Use the ID alone, e.g. aiflw_1234abcd.',
		);
	}
	return {
		event_type: 'connect_to_ai_agent',
		contact: contactFrom(input.phoneNumber, input.contactFields),
		template_message: templateMessage,
		ai_agent: { id: aiAgentId },
	};
}

/** Reads and checks one item: the body of its request and its header file. */
async function prepare(this: IExecuteFunctions, itemIndex: number): Promise<TemplateMessagePlan> {
	const additionalFields = parameterOfItem(this, 'additionalFields', itemIndex, {}) as IDataObject;
	const variables = variablesOfItem(this, itemIndex);
	const body = buildConnectToAiAgentBody({
		phoneNumber: parameterOfItem(this, 'phoneNumber', itemIndex),
		templateId: parameterOfItem(this, 'templateId', itemIndex, '', { extractValue: true }),
		liquidValues: liquidValuesOf(variables),
		aiAgentId: parameterOfItem(this, 'aiAgentId', itemIndex),
		contactFields: parameterOfItem(this, 'contactFields', itemIndex, {}) as IDataObject,
		businessPhoneNumber: additionalFields.businessPhoneNumber,
	});
	return { body, headerMedia: await checkAgainstTemplate(this, itemIndex, body, variables) };
}

/** Template Message → Connect to AI Agent: a template message that hands the replies to an agent. */
export const connectToAiAgent: DeliveringOperation<TemplateMessagePlan> = {
	option,
	properties,
	delivers: true,
	prepare,
	recipientOf: recipientOfTemplateMessage,
	preview: previewTemplateMessage,
	sameDelivery: sameTemplateMessage,
	witnessOf: witnessOfTemplateMessage,
	stage: uploadHeaderFiles,
	deliver: deliverTemplateMessage,
	sight: sightOfTemplateMessage,
};
