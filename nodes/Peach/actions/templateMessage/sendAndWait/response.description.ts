import type { INodeProperties } from 'n8n-workflow';

import { customFormProperties } from './form.description';
import { limitWaitTime } from './limit';

/**
 * How the contact answers, and the answer page's options: Response Type (approval, free text or a
 * custom form), the custom form's parameters, the approval's buttons, and the options of each type
 * (Limit Wait Time for all). answer.ts reads them when the link is opened.
 */
export const responseProperties: INodeProperties[] = [
	{
		displayName: 'Response Type',
		name: 'responseType',
		type: 'options',
		default: 'approval',
		options: [
			{
				name: 'Approval',
				value: 'approval',
				description: 'The contact approves (or declines) on the answer page',
			},
			{
				name: 'Free Text',
				value: 'freeText',
				description: 'The contact writes an answer on the answer page',
			},
			{
				name: 'Custom Form',
				value: 'customForm',
				description:
					'The contact fills in a form on the answer page (an amount, a choice, a date…)',
			},
		],
	},
	...customFormProperties.map((property) => ({
		...property,
		displayOptions: {
			show: { ...property.displayOptions?.show, responseType: ['customForm'] },
		},
	})),
	{
		displayName: 'Approval Options',
		name: 'approvalOptions',
		type: 'fixedCollection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Values',
				name: 'values',
				values: [
					{
						displayName: 'Type of Approval',
						name: 'approvalType',
						type: 'options',
						default: 'single',
						options: [
							{ name: 'Approve Only', value: 'single' },
							{ name: 'Approve and Disapprove', value: 'double' },
						],
					},
					{
						displayName: 'Approve Button Label',
						name: 'approveLabel',
						type: 'string',
						default: 'Approve',
					},
					{
						displayName: 'Disapprove Button Label',
						name: 'disapproveLabel',
						type: 'string',
						default: 'Decline',
						displayOptions: { show: { approvalType: ['double'] } },
					},
				],
			},
		],
		displayOptions: { show: { responseType: ['approval'] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [limitWaitTime],
		displayOptions: { show: { responseType: ['approval'] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			limitWaitTime,
			{
				displayName: 'Response Form Button Label',
				name: 'responseFormButtonLabel',
				type: 'string',
				default: 'Send',
			},
			{
				displayName: 'Response Form Title',
				name: 'responseFormTitle',
				type: 'string',
				default: '',
				description: 'Title of the answer page',
			},
		],
		displayOptions: { show: { responseType: ['freeText', 'customForm'] } },
	},
];
