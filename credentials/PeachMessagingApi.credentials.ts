import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

/**
 * API key credential for Peach.
 *
 * The type name is deliberately not `peachApi`: Peach's own n8n package registers that name, and
 * credential type names are global in n8n, so both packages must be installable side by side.
 */
export class PeachMessagingApi implements ICredentialType {
	name = 'peachMessagingApi';

	displayName = 'Peach API';

	icon: Icon = { light: 'file:../icons/peach.svg', dark: 'file:../icons/peach.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-peach/n8n-nodes-peach#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'The API key from the Peach web app (Developers → API Keys). It is sent as the raw Authorization header, without "Bearer".',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'https://app.trypeach.io',
			required: true,
			placeholder: 'e.g. https://app.trypeach.io',
			description:
				'Where the Peach API is served. The docs use https://app.trypeach.io; https://app.trypeach.ai serves the same API. Point it at a local sandbox for testing.',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '={{$credentials.apiKey}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl}}',
			url: '/api/v1/conversations',
			method: 'GET',
			qs: { page: 1 },
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'Peach rejected the API key (401 Unauthorized). Copy the key again from Developers → API Keys in the Peach web app.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'The API key is valid but not allowed to read conversations (403 Forbidden). Use an account API key.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'No Peach API at this Base URL (404 Not Found). Use https://app.trypeach.io, without /api/v1.',
				},
			},
		],
	};
}
