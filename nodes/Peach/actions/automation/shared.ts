import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { isSet, oneOf, validateHttpUrl } from '../../helpers/fields';
import { parseJsonObject } from '../../helpers/json';
import { omitEmpty } from '../../helpers/payload';
import { normalizeBusinessPhoneNumber } from '../../helpers/phone';
import { locatorValueOf } from '../item/itemParameters';

/** What the Automation operations share: the automation's ID, and its optional fields for Create and Update. */

export function automationIdOf(context: IExecuteFunctions, itemIndex: number): string {
	return locatorValueOf(
		context,
		itemIndex,
		'automationId',
		'Automation',
		'Pick an automation From List, or enter its ID By ID (e.g. strm_1234abcd).',
	);
}

export const EXECUTION_MODES = ['backend_driven', 'definition_driven'];
export const AUTOMATION_STATUSES = ['archived', 'draft', 'published'];

/** The optional fields of an automation, for Create and Update alike. */
export const automationFieldOptions: INodeProperties[] = [
	{
		displayName: 'Backend URL',
		name: 'backendUrl',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://example.com/peach/backend',
		description: 'The http(s) URL of your backend, for a backend-driven automation',
	},
	{
		displayName: 'Business Phone Number',
		name: 'businessPhoneNumber',
		type: 'string',
		default: '',
		placeholder: 'e.g. 919876543210',
		description:
			"The business number the automation sends from: digits with the country code and no +. Peach uses the account's first number when it is left out.",
	},
	{
		displayName: 'Definition (JSON)',
		name: 'definition',
		type: 'json',
		default:
			'{\n  "start_step": "welcome",\n  "steps": {\n    "welcome": {\n      "type": "send_message",\n      "payload": { "message": { "text": "Hello!" } }\n    }\n  }\n}',
		description:
			'The step graph as a JSON object: start_step names the first step, steps holds each step. Publishing checks it.',
	},
	{
		displayName: 'Description',
		name: 'description',
		type: 'string',
		default: '',
		placeholder: 'e.g. Thanks buyers and asks for a review',
		description: 'What the automation does',
	},
	{
		displayName: 'Execution Mode',
		name: 'executionMode',
		type: 'options',
		options: [
			{
				name: 'Backend Driven',
				value: 'backend_driven',
				description: 'Your backend (Backend URL) decides each step',
			},
			{
				name: 'Definition Driven',
				value: 'definition_driven',
				description: 'Peach runs the steps of the Definition',
			},
		],
		default: 'definition_driven',
		description:
			'Who drives the automation. When this field is left out it is not sent, and Peach uses Definition Driven if a Definition is given.',
	},
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		options: [
			{ name: 'Archived', value: 'archived' },
			{ name: 'Draft', value: 'draft' },
			{
				name: 'Published',
				value: 'published',
				description: 'Peach validates the Definition when publishing',
			},
		],
		default: 'draft',
		description:
			'The status to create the automation in. Peach creates a draft when it is left out.',
	},
];

/** An automation's optional fields as Peach names them, only those set. Pure. */
export function automationAttributes(fields: IDataObject): IDataObject {
	const definition = !isSet(fields.definition)
		? undefined
		: parseJsonObject('Definition (JSON)', fields.definition);
	const body: IDataObject = omitEmpty({
		description: typeof fields.description === 'string' ? fields.description.trim() : undefined,
		status: oneOf('Status', fields.status, AUTOMATION_STATUSES),
		execution_mode: oneOf('Execution Mode', fields.executionMode, EXECUTION_MODES),
		business_phone_number: isSet(fields.businessPhoneNumber)
			? normalizeBusinessPhoneNumber('Business Phone Number', fields.businessPhoneNumber)
			: undefined,
		backend_url: isSet(fields.backendUrl)
			? validateHttpUrl('Backend URL', fields.backendUrl)
			: undefined,
	});
	// Set after omitEmpty: an empty object is still a definition the user gave on purpose.
	if (definition !== undefined) body.definition = definition;
	return body;
}
