import type { INodeProperties } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { PeachMessagingApi } from '../../credentials/PeachMessagingApi.credentials';
import { Peach } from '../../nodes/Peach/Peach.node';
import codex from '../../nodes/Peach/Peach.node.json';
import { PeachTrigger } from '../../nodes/PeachTrigger/PeachTrigger.node';

const description = new Peach().description;
const property = (name: string, resource?: string) =>
	description.properties.find(
		(p) => p.name === name && (!resource || p.displayOptions?.show?.resource?.includes(resource)),
	) as INodeProperties;

describe('Peach node description', () => {
	it('is usable as an AI tool with action texts on every operation', () => {
		expect(description.usableAsTool).toBe(true);
		for (const resource of ['automation', 'templateMessage', 'trigger']) {
			const operation = property('operation', resource);
			for (const option of operation.options as Array<{ action?: string; description?: string }>) {
				expect(option.action).toMatch(/^[A-Z][a-z]/);
				expect(option.description?.length).toBeGreaterThan(20);
			}
		}
	});

	it('has the three resources, named as the issue says, sorted', () => {
		const resources = property('resource').options as Array<{ name: string; value: string }>;
		expect(resources.map((r) => r.name)).toEqual(['Automation', 'Template Message', 'Trigger']);
	});

	it('uses resource locators with From List as the default mode, plus By ID', () => {
		for (const name of ['templateId', 'triggerId', 'automationId']) {
			const locator = description.properties.find((p) => p.name === name) as INodeProperties;
			expect(locator.type).toBe('resourceLocator');
			expect(locator.default).toEqual({ mode: 'list', value: '' });
			expect(locator.modes?.map((mode) => mode.name)).toEqual(['list', 'id']);
		}
	});

	it("uses the package credential, not the official package's peachApi", () => {
		expect(description.credentials).toEqual([{ name: 'peachMessagingApi', required: true }]);
	});

	it('has a codex file in the Communication category', () => {
		expect(codex.node).toBe('n8n-nodes-peach.peach');
		expect(codex.categories).toEqual(['Communication']);
	});

	it('the trigger is a trigger node, not a tool', () => {
		const trigger = new PeachTrigger().description;
		expect(trigger.group).toEqual(['trigger']);
		expect(trigger.inputs).toEqual([]);
		expect(trigger.usableAsTool).toBeUndefined();
	});
});

describe('Peach API credential', () => {
	const credential = new PeachMessagingApi();

	it('is named so it can live beside the official package', () => {
		expect(credential.name).toBe('peachMessagingApi');
		expect(credential.name).not.toBe('peachApi');
		expect(credential.displayName).toBe('Peach API');
	});

	it('sends the raw key as Authorization, no Bearer', () => {
		expect(credential.authenticate).toEqual({
			type: 'generic',
			properties: { headers: { Authorization: '={{$credentials.apiKey}}' } },
		});
	});

	it('hides the key and defaults the base URL to the documented host', () => {
		const apiKey = credential.properties.find((p) => p.name === 'apiKey');
		expect(apiKey?.typeOptions?.password).toBe(true);
		expect(apiKey?.required).toBe(true);
		expect(credential.properties.find((p) => p.name === 'baseUrl')?.default).toBe(
			'https://app.trypeach.io',
		);
	});

	it('tests with a cheap authenticated GET and explains a rejected key', () => {
		expect(credential.test.request).toMatchObject({
			method: 'GET',
			url: '/api/v1/conversations',
			baseURL: '={{$credentials.baseUrl}}',
		});
		const rule401 = credential.test.rules?.find(
			(rule) => rule.type === 'responseCode' && rule.properties.value === 401,
		);
		expect(rule401?.properties.message).toContain('Peach rejected the API key');
	});
});
