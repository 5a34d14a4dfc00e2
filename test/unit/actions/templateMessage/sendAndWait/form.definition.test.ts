import type { NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { option, elements, base, methodOf, send, withFields } from './formRun';

describe('Send and Wait → Custom Form: the definition, checked before the send', () => {
	it('a form that can be shown: the template is sent with the link, and the workflow waits', async () => {
		const { requests, putExecutionToWait } = await send(base);
		expect(requests.map((r) => `${r.options.method} ${r.url}`)).toEqual([
			'GET https://peach.test/api/v1/whats_app_templates/wat_approval',
			'POST https://peach.test/api/v1/events',
		]);
		expect(putExecutionToWait).toHaveBeenCalledTimes(1);
	});

	it("takes the form as JSON (n8n's Form node format)", async () => {
		const { requests, output } = await send({
			...base,
			defineForm: 'json',
			jsonOutput: JSON.stringify(elements.slice(0, 2)),
		});
		expect(output).not.toBeInstanceOf(Error);
		expect(requests).toHaveLength(2);
	});

	for (const [what, formFields, message] of [
		[
			'no field to fill in',
			[{ fieldType: 'html', html: '<p>Hi</p>' }],
			'Form Elements "1 fields" has no field to fill in',
		],
		[
			'a field without a label',
			[{ fieldLabel: ' ', fieldType: 'text' }],
			'Form Elements → field 1 → Label is empty',
		],
		[
			'a file field (the page takes no files)',
			[{ fieldLabel: 'Photo', fieldType: 'file' }],
			'Form Elements → field 1 (Photo) → Element Type "file" is not offered: the answer page takes no files',
		],
		[
			'a dropdown without options',
			[{ fieldLabel: 'Reason', fieldType: 'dropdown', fieldOptions: { values: [] } }],
			'Form Elements → field 1 (Reason) → Options [] has no options',
		],
		[
			'an option given twice',
			[{ fieldLabel: 'Reason', fieldType: 'radio', fieldOptions: option('A', 'A') }],
			'Form Elements → field 1 (Reason) → Options "A" is given twice',
		],
		[
			'a default that is not an option',
			[
				{
					fieldLabel: 'Reason',
					fieldType: 'dropdown',
					fieldOptions: option('Damaged'),
					defaultValue: 'Lost',
				},
			],
			'Form Elements → field 1 (Reason) → Default Value "Lost" is not one of its options',
		],
		[
			'a date default that is not a date',
			[{ fieldLabel: 'When', fieldType: 'date', defaultValue: '2026-02-30' }],
			'Form Elements → field 1 (When) → Default Value "2026-02-30" is not a date',
		],
		[
			'two fields with one key (one answer would hide the other)',
			[
				{ fieldLabel: 'Amount', fieldType: 'number' },
				{ fieldLabel: 'Amount', fieldType: 'text' },
			],
			'Form Elements "Amount" names two fields: one answer would hide the other',
		],
		[
			'a field named respondedAt',
			[{ fieldLabel: 'respondedAt', fieldType: 'text' }],
			'Form Elements "respondedAt" is the key of the time of the answer',
		],
		[
			'a hidden field without a name',
			[
				{ fieldLabel: 'Amount', fieldType: 'number' },
				{ fieldType: 'hiddenField', fieldValue: 'x' },
			],
			'Form Elements → field 2 → Custom Field Name is empty',
		],
		[
			'checkboxes that cannot be chosen (3 of 2)',
			[
				{
					fieldLabel: 'Notify',
					fieldType: 'checkbox',
					fieldOptions: option('A', 'B'),
					limitSelection: 'exact',
					numberOfSelections: 3,
				},
			],
			'Form Elements → field 1 (Notify) → Limit Selection "3 to 3 of 2" cannot be chosen',
		],
	] as const) {
		it(`refuses ${what} before anything is sent`, async () => {
			const { requests, output, putExecutionToWait } = await send(withFields(...formFields));
			expect(requests.map(methodOf)).toEqual(['GET']); // only the template was read
			expect(putExecutionToWait).not.toHaveBeenCalled();
			expect((output as NodeOperationError).message).toBe(message);
			expect((output as NodeOperationError).description).toContain('Nothing was sent');
		});
	}

	it('refuses Form Fields (JSON) that is not JSON, or not a list, before anything is sent', async () => {
		const broken = await send({ ...base, defineForm: 'json', jsonOutput: '[{"fieldLabel": }' });
		expect(broken.requests.map(methodOf)).toEqual(['GET']); // only the template was read
		expect((broken.output as Error).message).toMatch(
			/^Form Fields \(JSON\) ".*" is not valid JSON/,
		);
		const object = await send({ ...base, defineForm: 'json', jsonOutput: '{"fieldLabel": "A"}' });
		expect(object.requests.map(methodOf)).toEqual(['GET']); // only the template was read
		expect((object.output as Error).message).toBe(
			'Form Fields (JSON) {"fieldLabel":"A"} is not a list of fields',
		);
	});
});
