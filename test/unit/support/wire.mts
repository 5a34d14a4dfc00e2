import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { ICredentialDataDecryptedObject, IHttpRequestOptions, INode } from 'n8n-workflow';

import { PeachMessagingApi } from '../../../credentials/PeachMessagingApi.credentials';
import { n8nExecuteContext, peachWorkflow } from './n8nContext';

/**
 * n8n's own request functions (n8n-core's ExecuteContext helpers: httpRequestWithAuthentication and
 * httpRequest, over @n8n/backend-network), for tests that need the real wire: a faked HTTP layer
 * follows no redirect and resolves no `..`, n8n's does both.
 */
export function n8nRequestHelpers(node: INode) {
	const credential = new PeachMessagingApi();
	const additionalData = {
		credentialsHelper: {
			getParentTypes: () => [],
			preAuthentication: async () => undefined,
			// As n8n's CredentialsHelper: a credential whose authenticate is a function is applied as is.
			authenticate: async (
				data: ICredentialDataDecryptedObject,
				_type: string,
				options: IHttpRequestOptions,
			) => await credential.authenticate(data, options),
		},
	};
	const context = n8nExecuteContext(
		peachWorkflow(node, 'wf-wire'),
		node,
		[{}],
		additionalData as never,
	);
	return {
		httpRequestWithAuthentication: context.helpers.httpRequestWithAuthentication.bind(context),
		httpRequest: context.helpers.httpRequest.bind(context),
		// n8n's older request path, which the HTTP Request node (v4.2) sends through.
		requestWithAuthentication: context.helpers.requestWithAuthentication.bind(context),
	};
}

export interface SeenRequest {
	method: string;
	url: string;
	authorization?: string;
	body: string;
}

/** A local HTTP server that records what reaches it and answers with `answer`. */
export async function recordingServer(
	answer: (
		request: IncomingMessage,
		body: string,
	) => {
		status: number;
		headers?: Record<string, string>;
		body?: string;
	},
): Promise<{ url: string; seen: SeenRequest[]; close(): Promise<void> }> {
	const seen: SeenRequest[] = [];
	const server: Server = createServer((request, response) => {
		let body = '';
		request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
		request.on('end', () => {
			seen.push({
				method: request.method ?? '',
				url: request.url ?? '',
				authorization: request.headers.authorization,
				body,
			});
			const { status, headers, body: text } = answer(request, body);
			response.writeHead(status, { 'Content-Type': 'application/json', ...headers });
			response.end(text ?? '');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		seen,
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
