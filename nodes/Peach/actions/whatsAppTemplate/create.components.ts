import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { parseJson } from '../../helpers/json';
import { approvalRequestOf, approvalRequestProperties } from './approvalRequest';
import { componentsOfFields } from './create.componentsFromFields';

/**
 * WhatsApp Template → Create's components, given one of three ways: in the fields (header, body,
 * footer, buttons; made components in create.componentsFromFields.ts), as Peach's
 * components_attributes JSON, or as an approval request (approvalRequest.ts).
 */

/** Create's parameters for its components: how they are given, then each way's fields. */
export const componentsProperties: INodeProperties[] = [
	{
		displayName: 'Components',
		name: 'componentsInput',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Using Fields Below',
				value: 'fields',
				description: 'Header, body, footer and buttons',
			},
			{
				name: 'Using JSON',
				value: 'json',
				description: "Peach's components_attributes array as JSON, for power users",
			},
			{
				name: 'Approval Request (for Send and Wait)',
				value: 'approval',
				description:
					'A ready template for Template Message → Send and Wait for Response: a message variable and the answer link, as text or as a URL button to this n8n',
			},
		],
		default: 'fields',
	},
	...approvalRequestProperties,
	{
		displayName: 'Header',
		name: 'headerType',
		type: 'options',
		options: [
			{ name: 'Document', value: 'document' },
			{ name: 'Image', value: 'image' },
			{ name: 'None', value: 'none' },
			{ name: 'Text', value: 'text' },
			{ name: 'Video', value: 'video' },
		],
		default: 'none',
		description: 'What the message shows above the body',
		displayOptions: { show: { componentsInput: ['fields'] } },
	},
	{
		displayName: 'Header Text',
		name: 'headerValue',
		type: 'string',
		default: '',
		placeholder: "e.g. Order {{order_id | example: 'A-7'}}",
		description: 'At most 60 characters and one variable, with its example',
		displayOptions: { show: { componentsInput: ['fields'], headerType: ['text'] } },
	},
	{
		displayName: 'Header Sample Media',
		name: 'headerValue',
		type: 'string',
		default: '',
		placeholder: 'e.g. media://101 or https://example.com/sample.pdf',
		description:
			"A sample of the media for Meta's review: a media:// URL from Peach Upload or a public URL. Each send gives its own in header_media.",
		displayOptions: {
			show: { componentsInput: ['fields'], headerType: ['image', 'video', 'document'] },
		},
	},
	{
		displayName: 'Body',
		name: 'bodyText',
		type: 'string',
		typeOptions: { rows: 4 },
		required: true,
		default: '',
		placeholder: "e.g. Hi {{first_name | example: 'Ana'}}, your order is on its way.",
		description:
			"The message text, at most 1,024 characters. Write each variable with an example: {{name | example: 'value'}}.",
		displayOptions: { show: { componentsInput: ['fields'] } },
	},
	{
		displayName: 'Footer',
		name: 'footerText',
		type: 'string',
		default: '',
		placeholder: 'e.g. Reply STOP to opt out',
		description: 'Small text under the body, at most 60 characters',
		displayOptions: { show: { componentsInput: ['fields'] } },
	},
	{
		displayName: 'Buttons',
		name: 'buttons',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Button',
		default: {},
		description: 'At most 10 buttons: quick replies, up to 2 links and 1 phone number',
		displayOptions: { show: { componentsInput: ['fields'] } },
		options: [
			{
				displayName: 'Button',
				name: 'button',
				values: [
					{
						displayName: 'Type',
						name: 'type',
						type: 'options',
						options: [
							{ name: 'Phone Number', value: 'phone_number' },
							{ name: 'Quick Reply', value: 'quick_reply' },
							{ name: 'URL', value: 'url' },
						],
						default: 'quick_reply',
					},
					{
						displayName: 'Text',
						name: 'text',
						type: 'string',
						default: '',
						placeholder: 'e.g. Track order',
						description: 'The button label, at most 25 characters',
					},
					{
						displayName: 'URL or Phone Number',
						name: 'value',
						type: 'string',
						default: '',
						placeholder: 'e.g. https://example.com/track or +14155550123',
						description:
							'For a URL button the link; for a phone button the number with + and country code',
					},
				],
			},
		],
	},
	{
		displayName: 'Components (JSON)',
		name: 'componentsJson',
		type: 'json',
		default:
			'[\n  { "component_type": "body", "data_type": "text", "value": "Hi {{first_name | example: \'Ana\'}}!", "index": 0 }\n]',
		description:
			"Peach's components_attributes: component_type, data_type, value, and for buttons sub_type and name",
		displayOptions: { show: { componentsInput: ['json'] } },
	},
];

/** The item's components as its Components choice gives them; checked by the body builder. */
export function componentsOf(context: IExecuteFunctions, itemIndex: number): unknown {
	const mode = context.getNodeParameter('componentsInput', itemIndex, 'fields') as string;
	if (mode === 'approval') return approvalRequestOf(context, itemIndex);
	if (mode === 'json') {
		return parseJson(
			'Components (JSON)',
			context.getNodeParameter('componentsJson', itemIndex, '[]'),
		);
	}
	return componentsOfFields(context, itemIndex);
}
