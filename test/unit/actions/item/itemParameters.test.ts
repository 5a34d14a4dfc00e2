import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { locator, type ParameterRead, runOverInputs, runPeach } from '../../support/harness';

/**
 * A run over many items asks n8n to resolve a parameter without an expression once, not once per
 * item (its value is the same for every item); a parameter with an expression is resolved for each
 * item. What each item sends is unchanged.
 */

const people: IDataObject[] = [
	{ phone: '+919900000001', name: 'Asha' },
	{ phone: '+919900000002', name: 'Ravi' },
	{ phone: '+919900000003', name: 'Mina' },
];
const accepted = { statusCode: 201, body: { status: 'success', event_id: 'evt_1' } };

/** The items for which n8n resolved (not only read as stored) each parameter. */
function resolvedPerParameter(reads: ParameterRead[]): Record<string, number[]> {
	const result: Record<string, number[]> = {};
	for (const read of reads.filter((read) => !read.raw))
		(result[read.name] ??= []).push(read.itemIndex);
	return result;
}

describe('parameters read per item', () => {
	it('Send over 3 items: expressions read for the first item, then asked together per item; fixed ones once', async () => {
		// The expressions: the phone number and the variable; every fixed parameter is read once.
		const { requests, reads } = await runOverInputs(
			{
				resource: 'templateMessage',
				operation: 'send',
				phoneNumber: '={{ $json.phone }}',
				templateId: locator('wat_welcome', 'id'),
				variablesInput: 'fields',
				variables: { values: [{ key: 'first_name', value: '={{ $json.name }}' }] },
				contactFields: { language: 'en' },
				additionalFields: { businessPhoneNumber: '919876543222' },
			},
			people,
			accepted,
		);
		expect(resolvedPerParameter(reads)).toMatchObject({
			phoneNumber: [0],
			variables: [0],
			'(expression)': [1, 2],
			templateId: [0],
			variablesInput: [0],
			contactFields: [0],
			additionalFields: [0],
			headerMedia: [0],
			waitForDelivery: [0],
		});
		expect(requests.map((request) => request.body)).toEqual(
			people.map((person) => ({
				event_type: 'send_template_message',
				contact: { phone_number: person.phone, language: 'en' },
				template_message: {
					whats_app_template_id: 'wat_welcome',
					liquid_values: { first_name: person.name },
					business_phone_number: '919876543222',
				},
			})),
		);
	});

	it('a fixed value that differs between items (as an expression would give) is each item’s own', async () => {
		const { requests } = await runPeach({
			params: people.map((person) => ({
				resource: 'templateMessage',
				operation: 'send',
				phoneNumber: person.phone,
				templateId: locator('wat_welcome', 'id'),
				variablesInput: 'fields',
				variables: { values: [{ key: 'first_name', value: person.name }] },
			})),
			responses: people.map(() => accepted),
		});
		expect(
			requests.map((request) => (request.body as { contact: IDataObject }).contact.phone_number),
		).toEqual(people.map((person) => person.phone));
	});
});
