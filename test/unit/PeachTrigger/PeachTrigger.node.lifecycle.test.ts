import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { PeachTrigger } from '../../../nodes/PeachTrigger/PeachTrigger.node';

function hooks(staticData: IDataObject, url = 'https://n8n.test/webhook/abc/webhook') {
	return {
		getWorkflowStaticData: () => staticData,
		getNodeWebhookUrl: () => url,
	} as unknown as IHookFunctions;
}

describe('Peach Trigger webhook lifecycle (no Peach API: the URL is pasted into Peach)', () => {
	const methods = new PeachTrigger().webhookMethods.default;

	it('publishing records the URL; a second publish finds it', async () => {
		const staticData: IDataObject = {};
		expect(await methods.checkExists.call(hooks(staticData))).toBe(false);
		expect(await methods.create.call(hooks(staticData))).toBe(true);
		expect(staticData).toEqual({ webhookUrl: 'https://n8n.test/webhook/abc/webhook' });
		expect(await methods.checkExists.call(hooks(staticData))).toBe(true);
	});

	it('a changed URL is noticed, and unpublishing clears it', async () => {
		const staticData: IDataObject = { webhookUrl: 'https://old.test/webhook/abc/webhook' };
		expect(await methods.checkExists.call(hooks(staticData))).toBe(false);
		expect(await methods.delete.call(hooks(staticData))).toBe(true);
		expect(staticData).toEqual({});
	});
});
