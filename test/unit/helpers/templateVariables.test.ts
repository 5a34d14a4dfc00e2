import { describe, expect, it } from 'vitest';

import {
	placeholdersWithoutExample,
	templateVariables,
} from '../../../nodes/Peach/helpers/templateVariables';
import { getTemplateVariables } from '../../../nodes/Peach/methods/resourceMapping/templateVariables';
import { createLoadOptionsContext, locator } from '../support/harness';

const template = {
	id: 'wat_1',
	components: [
		{
			component_type: 'body',
			data_type: 'text',
			index: 1,
			value:
				'Hi {{first_name | example: \'Ana\'}}, order {{ order_id }} is {{status|example:"ready"}}. {{first_name}}',
		},
		{ component_type: 'header', data_type: 'document', index: 0, value: 'media://1' },
		{ component_type: 'footer', data_type: 'text', index: 2, value: 'Thanks' },
	],
};

describe('template variables', () => {
	it('reads the variables of a template in order, each once, with examples and the media header', () => {
		expect(templateVariables(template)).toEqual([
			{ name: 'header_media', component: 'header' },
			{ name: 'first_name', example: 'Ana', component: 'body' },
			{ name: 'order_id', example: undefined, component: 'body' },
			{ name: 'status', example: 'ready', component: 'body' },
		]);
		expect(templateVariables({})).toEqual([]);
		expect(placeholdersWithoutExample("{{a}} {{b | example: 'x'}} {{c}}")).toEqual(['a', 'c']);
	});

	it('the resource mapper offers one field per variable, the example in its name', async () => {
		const { context, requests } = createLoadOptionsContext({
			currentParams: { templateId: locator('wat_1') },
			responses: [{ statusCode: 200, body: template }],
		});
		const result = await getTemplateVariables.call(context);
		expect(requests[0].url).toBe('https://peach.test/api/v1/whats_app_templates/wat_1');
		expect(result.fields.map((field) => [field.id, field.displayName, field.required])).toEqual([
			[
				'header_media',
				'header_media (media URL or media://ID; empty with Header Media From a Binary Field)',
				false,
			],
			['first_name', 'first_name (e.g. Ana)', true],
			['order_id', 'order_id', true],
			['status', 'status (e.g. ready)', true],
		]);
		const none = createLoadOptionsContext({ currentParams: { templateId: locator('') } });
		expect(await getTemplateVariables.call(none.context)).toEqual({
			fields: [],
			emptyFieldsNotice: 'Pick a template first: its variables appear here',
		});
		expect(none.requests).toHaveLength(0);
	});

	it('the list depends on the template alone: Header Media never changes it, and header_media is never required', async () => {
		// Header Media: a file from a binary field or not. n8n empties typed values when a parameter the list
		// depends on changes.
		for (const headerMedia of ['variables', 'binary', 'binaryPerContact']) {
			const { context } = createLoadOptionsContext({
				currentParams: { templateId: locator('wat_1'), headerMedia },
				responses: [{ statusCode: 200, body: template }],
			});
			const result = await getTemplateVariables.call(context);
			expect(result.fields.map((field) => [field.id, field.required])).toEqual([
				['header_media', false],
				['first_name', true],
				['order_id', true],
				['status', true],
			]);
		}
	});

	it('an empty list says why: Send and Wait says the node fills the rest; a template without variables says so', async () => {
		// n8n 2.40 keeps the last notice until another comes, drawn as info; Send and Wait over approval_request.
		const approval = {
			id: 'wat_approval',
			components: [
				{
					component_type: 'body',
					data_type: 'text',
					index: 0,
					value: 'Approval needed: {{message}} Please answer here: {{approval_link}}',
				},
			],
		};
		const { context } = createLoadOptionsContext({
			currentParams: {
				templateId: locator('wat_approval'),
				operation: 'sendAndWait',
				linkVariable: 'approval_link',
				messageVariable: 'message',
			},
			responses: [{ statusCode: 200, body: approval }],
		});
		expect(await getTemplateVariables.call(context)).toEqual({
			fields: [],
			emptyFieldsNotice:
				'Template wat_approval has no other variables: Send and Wait fills {{approval_link}} and {{message}} itself',
		});
		const plain = createLoadOptionsContext({
			currentParams: { templateId: locator('wat_plain') },
			responses: [{ statusCode: 200, body: { id: 'wat_plain', components: [] } }],
		});
		expect(await getTemplateVariables.call(plain.context)).toEqual({
			fields: [],
			emptyFieldsNotice: 'Template wat_plain has no variables: nothing to fill here',
		});
	});

	it('a template WhatsApp does not send, chosen By ID, is flagged at once: its status and the fix, not variables', async () => {
		const pending = createLoadOptionsContext({
			currentParams: { templateId: { __rl: true, mode: 'id', value: 'spring_promo' } },
			responses: [
				{
					statusCode: 200,
					body: { ...template, id: 'spring_promo', name: 'spring_promo', status: 'PENDING' },
				},
			],
		});
		expect(await getTemplateVariables.call(pending.context)).toEqual({
			fields: [],
			emptyFieldsNotice:
				'Template "spring_promo" is pending: WhatsApp sends approved templates only. Meta is still reviewing it (usually minutes to a day). Pick an approved template, or run again once WhatsApp Template → Get shows it approved. Its variables appear here once it is approved.',
		});
		const paused = createLoadOptionsContext({
			currentParams: { templateId: { __rl: true, mode: 'id', value: 'wat_1' } },
			responses: [{ statusCode: 200, body: { ...template, name: 'welcome', status: 'paused' } }],
		});
		expect((await getTemplateVariables.call(paused.context)).emptyFieldsNotice).toMatch(
			/^Template "welcome" \(wat_1\) is paused: WhatsApp sends approved templates only\. Pick an approved template/,
		);
	});
});
