import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { waitingWebhookBase } from '../../helpers/fields';

/**
 * WhatsApp Template → Create → Approval Request: a ready template for Template Message → Send and
 * Wait for Response. Its body passes Meta's rules for variables (words before, between and after
 * them; enough words for two variables), with the answer link as text or in a URL button.
 */

/** The variables an approval request carries: Send and Wait for Response fills them. */
export const APPROVAL_VARIABLES = { message: 'message', link: 'approval_link' } as const;

export const approvalRequestProperties: INodeProperties[] = [
	{
		displayName: 'Link Placement',
		name: 'approvalLinkPlacement',
		type: 'options',
		options: [
			{
				name: 'In a Template Variable',
				value: 'variable',
				description:
					'The body carries the whole link as text after "Please answer here:" (about 200 characters, its signature visible); works whatever the address of this n8n',
			},
			{
				name: 'In a URL Button',
				value: 'urlButton',
				description:
					"A button opens the link, so the message stays short and the link unseen (best when this n8n's address is fixed): its URL is this n8n's waiting-webhook address followed by the link",
			},
		],
		default: 'variable',
		description:
			'Where the answer link goes: a URL button keeps the message short and hides the link; choose the same in Send and Wait for Response',
		displayOptions: { show: { componentsInput: ['approval'] } },
	},
	{
		displayName: 'Button Text',
		name: 'approvalButtonText',
		type: 'string',
		default: 'Answer',
		description: 'The URL button label, at most 25 characters',
		displayOptions: {
			show: { componentsInput: ['approval'], approvalLinkPlacement: ['urlButton'] },
		},
	},
];

const MESSAGE = `{{${APPROVAL_VARIABLES.message} | example: 'Approve the refund of ₹1,200 for order A-7?'}}`;
const LINK_EXAMPLE = '1234/node-id?peachWait=k3J9xQ&signature=0123abcd';

/**
 * `components_attributes` of an approval request: the message and the answer link, in the body as
 * text or at the end of a URL button to this n8n's waiting-webhook address. Pure.
 */
export function approvalComponents(input: {
	placement: string;
	waitingBase: string;
	buttonText: string;
}): IDataObject[] {
	if (input.placement === 'urlButton') {
		return [
			{
				component_type: 'body',
				data_type: 'text',
				value: `Approval needed: ${MESSAGE} Tap the button below to answer.`,
				index: 0,
			},
			{
				component_type: 'buttons',
				data_type: 'text',
				sub_type: 'url',
				name: input.buttonText.trim() || 'Answer',
				value: `${input.waitingBase}/{{${APPROVAL_VARIABLES.link} | example: '${LINK_EXAMPLE}'}}`,
				index: 1,
			},
		];
	}
	return [
		{
			component_type: 'body',
			data_type: 'text',
			value: `Approval needed: ${MESSAGE} Please answer here: {{${APPROVAL_VARIABLES.link} | example: '${input.waitingBase}/${LINK_EXAMPLE}'}} Thank you.`,
			index: 0,
		},
	];
}

/** The approval request the item's fields ask for, with this n8n's waiting-webhook address. */
export function approvalRequestOf(context: IExecuteFunctions, itemIndex: number): IDataObject[] {
	return approvalComponents({
		placement: context.getNodeParameter('approvalLinkPlacement', itemIndex, 'variable') as string,
		waitingBase: waitingWebhookBase(context.getSignedResumeUrl(), context.getExecutionId()),
		buttonText: String(context.getNodeParameter('approvalButtonText', itemIndex, 'Answer') ?? ''),
	});
}
