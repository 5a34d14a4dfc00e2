import { describe, expect, it } from 'vitest';

import { useSandbox } from './harness.mts';

const t = useSandbox();

const create = (template: Record<string, unknown>) =>
	t.api('POST', '/api/v1/whats_app_templates', {
		whats_app_template: {
			template_name: 'order_ready',
			language: 'en',
			category: 'UTILITY',
			components_attributes: [{ component_type: 'body', data_type: 'text', value: 'Ready!' }],
			...template,
		},
	});

describe('WhatsApp templates', () => {
	it('creates a draft (wrapped body, a body required, names unique), WABA id as number or text', async () => {
		const created = await create({ whats_app_business_account_id: 456 });
		expect(created.status).toBe(200);
		expect(created.json).toMatchObject({ template_name: 'order_ready', status: 'draft' });
		expect(created.json.components[0].id).toMatch(/_c0$/);
		expect(
			(await create({ template_name: 'other', whats_app_business_account_id: 'waba-ext' })).status,
		).toBe(200);
		const again = await create({});
		expect(again.json.reason.whats_app_template.template_name).toEqual(['has already been taken']);
		const noBody = await create({
			template_name: 'x',
			components_attributes: [{ component_type: 'footer', data_type: 'text', value: 'f' }],
		});
		expect(noBody.json.reason.whats_app_template.components_attributes).toEqual([
			'must include a body',
		]);
		expect(
			(await t.api('POST', '/api/v1/whats_app_templates', { template_name: 'x' })).status,
		).toBe(422);
	});

	it('updates components by id, removes with _destroy, refuses an unknown component id', async () => {
		const id = (await create({})).json.id;
		const componentId = `${id}_c0`;
		const updated = await t.api('PATCH', `/api/v1/whats_app_templates/${id}`, {
			whats_app_template: {
				folder: 'orders',
				components_attributes: [{ id: componentId, value: 'Now ready!' }],
			},
		});
		expect(updated.json.components[0].value).toBe('Now ready!');
		expect(updated.json.folder).toBe('orders');
		const removed = await t.api('PATCH', `/api/v1/whats_app_templates/${id}`, {
			whats_app_template: { components_attributes: [{ id: componentId, _destroy: true }] },
		});
		expect(removed.json.components).toEqual([]);
		const unknown = await t.api('PATCH', `/api/v1/whats_app_templates/${id}`, {
			whats_app_template: { components_attributes: [{ id: 'nope', value: 'x' }] },
		});
		expect(unknown.status).toBe(422);
	});

	it('submits a draft, pauses only approved, archives only approved/rejected/draft', async () => {
		const id = (await create({})).json.id;
		expect(
			(await t.api('PATCH', `/api/v1/whats_app_templates/${id}/pause`)).json.reason.status[0],
		).toBe('cannot pause a template that is draft (only approved)');
		expect((await t.api('PATCH', `/api/v1/whats_app_templates/${id}/submit`)).json.status).toBe(
			'pending',
		);
		expect((await t.api('PATCH', `/api/v1/whats_app_templates/${id}/archive`)).status).toBe(422);
		expect(
			(await t.api('PATCH', '/api/v1/whats_app_templates/wat_welcome/pause')).json.status,
		).toBe('paused');
		expect(
			(await t.api('PATCH', '/api/v1/whats_app_templates/wat_old_offer/archive')).json.status,
		).toBe('archived');
		expect((await t.api('GET', '/api/v1/whats_app_templates/order_ready')).json.id).toBe(id);
		expect((await t.api('PATCH', '/api/v1/whats_app_templates/nope/submit')).status).toBe(404);
	});

	it('deletes a template (204, then 404), which leaves the list', async () => {
		expect((await t.api('DELETE', '/api/v1/whats_app_templates/wat_promo')).status).toBe(204);
		expect((await t.api('GET', '/api/v1/whats_app_templates/wat_promo')).status).toBe(404);
		expect((await t.api('DELETE', '/api/v1/whats_app_templates/wat_promo')).status).toBe(404);
		const names = (await t.api('GET', '/api/v1/whats_app_templates')).json.map(
			(template: { id: string }) => template.id,
		);
		expect(names).not.toContain('wat_promo');
		expect(names).toContain('wat_invoice');
	});
});
