import type { IHttpRequestOptions } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	normalizeBaseUrl,
	PeachMessagingApi,
} from '../../../credentials/PeachMessagingApi.credentials';

describe('Peach API credential', () => {
	const credential = new PeachMessagingApi();
	const authenticate = (baseUrl: string, request: IHttpRequestOptions) =>
		credential.authenticate({ apiKey: 'the-key', baseUrl }, request);
	const urlOf = (sent: IHttpRequestOptions) =>
		`${String(sent.baseURL ?? '').replace(/\/+$/, '')}/${sent.url.replace(/^\/+/, '')}`;

	it('sends the raw key as Authorization, no Bearer', async () => {
		const sent = await authenticate('https://peach.test', { url: '/api/v1/events', headers: {} });
		expect(sent.headers).toEqual({ Authorization: 'the-key' });
	});

	it('the credential test calls the host the node calls, whatever form Base URL has', async () => {
		for (const baseUrl of [
			'https://peach.test',
			'https://peach.test/',
			'https://peach.test/api/v1',
			'https://peach.test/api/v1/',
		]) {
			const test = await authenticate(baseUrl, {
				...credential.test.request,
			} as IHttpRequestOptions);
			const node = await authenticate(baseUrl, { url: '/api/v1/conversations' });
			expect(urlOf(test)).toBe('https://peach.test/api/v1/conversations');
			expect(urlOf(node)).toBe(urlOf(test));
		}
	});

	it('hides the key, and explains a rejected key in the test', () => {
		expect(credential.properties.find((p) => p.name === 'apiKey')?.typeOptions?.password).toBe(
			true,
		);
		const rule401 = credential.test.rules?.find(
			(rule) => rule.type === 'responseCode' && rule.properties.value === 401,
		);
		expect(rule401?.properties.message).toContain('Peach rejected the API key');
	});
});

describe('base URL', () => {
	it('drops trailing slashes and a trailing /api/v1', () => {
		expect(normalizeBaseUrl('https://app.trypeach.io/')).toBe('https://app.trypeach.io');
		expect(normalizeBaseUrl('https://app.trypeach.ai/api/v1')).toBe('https://app.trypeach.ai');
		expect(normalizeBaseUrl('https://app.trypeach.ai/api/v1/')).toBe('https://app.trypeach.ai');
		expect(normalizeBaseUrl('')).toBe('https://app.trypeach.io');
	});
});
