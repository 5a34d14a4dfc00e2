import type {
	ICredentialDataDecryptedObject,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

export const DEFAULT_BASE_URL = 'https://app.trypeach.io';

/**
 * The one normalisation of Base URL, for the node's requests and the credential test alike:
 * `https://app.trypeach.io/`, `https://app.trypeach.io/api/v1` and `.../api/v1/` all become
 * `https://app.trypeach.io`; an empty value is the documented host.
 */
export function normalizeBaseUrl(value: unknown): string {
	const text = typeof value === 'string' && value.trim() !== '' ? value.trim() : DEFAULT_BASE_URL;
	return text.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
}

/**
 * API key credential for Peach.
 *
 * The type name is deliberately not `peachApi`: Peach's own n8n package registers that name, and
 * credential type names are global in n8n, so both packages must be installable side by side.
 */
/** How n8n's older request function (IRequestOptions) decides to follow a redirect. */
interface OlderRequestRedirects {
	followRedirect?: boolean;
	followAllRedirects?: boolean;
	sendCredentialsOnCrossOriginRedirect?: boolean;
}

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
			default: DEFAULT_BASE_URL,
			required: true,
			placeholder: 'e.g. https://app.trypeach.io',
			description:
				'Where the Peach API is served. The docs use https://app.trypeach.io; https://app.trypeach.ai serves the same API. Point it at a local sandbox for testing.',
		},
	];

	/**
	 * Adds the raw key as `Authorization` (no "Bearer") and, for a request with a path only, the
	 * normalised Base URL. A function rather than an expression: n8n evaluates an expression header
	 * for every request, and this also gives the credential test the node's own Base URL rule. An own
	 * property, not a method: n8n 2.x lists a community credential in the HTTP Request node
	 * (Predefined Credential Type) only when the copy it makes of the credential (own properties)
	 * still has `authenticate` (measured on 2.40.7: a method was lost, the list had no Peach API).
	 */
	authenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => {
		const authenticated: IHttpRequestOptions & OlderRequestRedirects = {
			...requestOptions,
			baseURL: requestOptions.baseURL || normalizeBaseUrl(credentials.baseUrl),
			headers: { ...requestOptions.headers, Authorization: String(credentials.apiKey ?? '') },
			// n8n copies the key onto a redirect to another host: a request with the key never
			// follows one (the node's, the credential test's, an HTTP Request node's). n8n's request
			// function reads disableFollowRedirect; its older one, which the HTTP Request node (v4.2)
			// sends through, reads the three below (and follows by default, key included).
			disableFollowRedirect: true,
			followRedirect: false,
			followAllRedirects: false,
			sendCredentialsOnCrossOriginRedirect: false,
		};
		return authenticated;
	};

	test: ICredentialTestRequest = {
		request: {
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
			...[301, 302, 303, 307, 308].map((value) => ({
				type: 'responseCode' as const,
				properties: {
					value,
					message: `Base URL answers with a redirect (${value}); the API key is never sent on to another address. Use the address the Peach API answers at, e.g. https://app.trypeach.io.`,
				},
			})),
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
