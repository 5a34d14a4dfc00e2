import { runner } from '../../support/resourceRun';

/** Runs the node with `params` over `responses` (templates as the responses); the output, or the error it threw. */
export const run = runner({ responses: [], templates: 'responses' });

/** Peach's answer to a template created. */
export const created = {
	statusCode: 201,
	body: { id: 'wat_9', template_name: 'order_ready', status: 'draft' },
};

/** A template to create, with a header, a body with variables, a footer and three buttons. */
export const create = {
	resource: 'whatsAppTemplate',
	operation: 'create',
	templateName: 'order_ready',
	language: 'en_US',
	category: 'UTILITY',
	componentsInput: 'fields',
	headerType: 'text',
	headerValue: "Order {{order_id | example: 'A-7'}}",
	bodyText: "Hi {{first_name | example: 'Ana'}}, your order is ready.",
	footerText: 'Peach Store',
	buttons: {
		button: [
			{ type: 'quick_reply', text: 'Thanks' },
			{ type: 'url', text: 'Track', value: 'https://example.com/t' },
			{ type: 'phone_number', text: 'Call us', value: '+14155550123' },
		],
	},
	additionalFields: { purpose: 'general', wabaId: '456', folder: 'orders' },
};

/** Templates as Peach lists them. */
export const templates = [
	{ id: 'wat_1', template_name: 'a', status: 'approved', category: 'UTILITY', language: 'en' },
	{ id: 'wat_2', template_name: 'b', status: 'pending', category: 'UTILITY', language: 'en' },
	{
		id: 'wat_3',
		template_name: 'c',
		status: 'APPROVED',
		category: 'MARKETING',
		language: 'en_US',
	},
	{ id: 'wat_4', template_name: 'd', status: 'approved', category: 'UTILITY', language: 'en' },
];
