import { constructExecutionMetaData, returnJsonArray } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	INodeExecutionData,
} from 'n8n-workflow';
import { vi } from 'vitest';

import { PeachMessagingApi } from '../../credentials/PeachMessagingApi.credentials';

/** A fake answer from Peach as httpRequestWithAuthentication returns it with returnFullResponse. */
export interface FakeResponse {
	statusCode: number;
	body?: unknown;
	headers?: Record<string, string>;
}

/** The key used in tests: short and plainly fake, but unique enough to search for in outputs and errors. */
export const TEST_API_KEY = 'fake-key-xyz';
export const TEST_BASE_URL = 'https://peach.test';

export const node: INode = {
	id: 'node-1',
	name: 'Peach',
	type: 'n8n-nodes-peach.peach',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

export interface RecordedRequest {
	credentialType: string;
	/** What the node asked for. */
	options: IHttpRequestOptions;
	/** What went on the wire: the options after the credential's authenticate (Base URL, key). */
	sent: IHttpRequestOptions;
	/** The full URL that was called. */
	url: string;
}

interface ContextOptions {
	/** Parameters for every item, or one map per item. */
	params: Record<string, unknown> | Array<Record<string, unknown>>;
	items?: number;
	/** Answers in order; an Error is thrown as a transport failure. */
	responses?: Array<FakeResponse | Error>;
	continueOnFail?: boolean;
	baseUrl?: string;
	timezone?: string;
	/** Binary data per item index: the file under the binary property `data` (or `property`). */
	binary?: Record<
		number,
		{ bytes: Buffer; mimeType: string; fileName?: string; property?: string }
	>;
	/** Answers of requests made without the credential (e.g. to storage). */
	plainResponses?: Array<FakeResponse | Error>;
}

function isLocator(value: unknown): value is { __rl?: boolean; mode: string; value: unknown } {
	return typeof value === 'object' && value !== null && 'mode' in value && 'value' in value;
}

const credential = new PeachMessagingApi();

/**
 * httpRequestWithAuthentication as n8n runs it: the credential's own authenticate() adds the key
 * and the Base URL, then the answer comes from the list (an Error is a transport failure).
 */
function fakeHttp(
	responses: Array<FakeResponse | Error>,
	requests: RecordedRequest[],
	credentials: { apiKey: string; baseUrl: string },
) {
	return vi.fn(
		async (
			credentialType: string,
			options: IHttpRequestOptions,
			additional?: { credentialsDecrypted?: { data?: ICredentialDataDecryptedObject } },
		) => {
			// n8n uses the credentials the node passes (read once per execution), else reads them itself.
			const data = additional?.credentialsDecrypted?.data ?? credentials;
			const sent = await credential.authenticate(data, structuredClone(options));
			// axios joins baseURL and a relative url like this (combineURLs); an absolute url stands alone.
			const url =
				sent.baseURL && !/^https?:\/\//i.test(sent.url)
					? `${sent.baseURL.replace(/\/+$/, '')}/${sent.url.replace(/^\/+/, '')}`
					: sent.url;
			requests.push({
				credentialType,
				options: structuredClone(options),
				sent: structuredClone(sent),
				url,
			});
			const next = responses.shift();
			if (next === undefined) throw new Error(`No fake response left for ${options.method} ${url}`);
			if (next instanceof Error) throw next;
			return { statusCode: next.statusCode, body: next.body, headers: next.headers ?? {} };
		},
	);
}

/** A parameter by name or dotted path (`additionalFields.replyAutomation`), as n8n reads it. */
function lookup(map: Record<string, unknown>, name: string): unknown {
	if (name in map) return map[name];
	let value: unknown = map;
	for (const part of name.split('.')) {
		if (typeof value !== 'object' || value === null || !(part in value)) return undefined;
		value = (value as Record<string, unknown>)[part];
	}
	return value;
}

export interface ParameterRead {
	name: string;
	itemIndex: number;
	extractValue: boolean;
}

/**
 * getNodeParameter as n8n does it: `extractValue` unpacks a resource locator found at that exact
 * path (a locator nested in a collection needs its own path); every read is recorded.
 */
function parameterGetter(params: ContextOptions['params'], reads: ParameterRead[]) {
	return (
		name: string,
		itemIndex: number,
		fallback?: unknown,
		options?: { extractValue?: boolean },
	) => {
		reads.push({ name, itemIndex, extractValue: options?.extractValue === true });
		const map = Array.isArray(params) ? params[itemIndex] : params;
		const found = lookup(map, name);
		const value = found === undefined ? fallback : found;
		if (value === undefined) throw new Error(`Could not get parameter "${name}"`);
		if (options?.extractValue && isLocator(value)) return value.value;
		return value;
	};
}

export function createExecuteContext(options: ContextOptions) {
	const requests: RecordedRequest[] = [];
	const reads: ParameterRead[] = [];
	const responses = [...(options.responses ?? [])];
	const itemCount = options.items ?? (Array.isArray(options.params) ? options.params.length : 1);
	const credentials = { apiKey: TEST_API_KEY, baseUrl: options.baseUrl ?? TEST_BASE_URL };
	const httpRequestWithAuthentication = fakeHttp(responses, requests, credentials);
	const getCredentials = vi.fn(async () => credentials);
	const plainRequests: IHttpRequestOptions[] = [];
	const plainResponses = [...(options.plainResponses ?? [])];
	const httpRequest = vi.fn(async (request: IHttpRequestOptions) => {
		plainRequests.push({
			...request,
			body: Buffer.isBuffer(request.body) ? request.body : structuredClone(request.body),
		});
		const next = plainResponses.shift();
		if (next === undefined)
			throw new Error(`No fake plain response left for ${request.method} ${request.url}`);
		if (next instanceof Error) throw next;
		return { statusCode: next.statusCode, body: next.body, headers: next.headers ?? {} };
	});
	const binaryOf = (itemIndex: number, property: string) => {
		const file = options.binary?.[itemIndex];
		if (!file || (file.property ?? 'data') !== property)
			throw new Error(
				`This operation expects the node's input data to contain a binary file '${property}', but none was found [item ${itemIndex}]`,
			);
		return file;
	};
	const context = {
		getInputData: () => Array.from({ length: itemCount }, (_, index) => ({ json: { index } })),
		getNodeParameter: parameterGetter(options.params, reads),
		getNode: () => node,
		getTimezone: () => options.timezone ?? 'UTC',
		continueOnFail: () => options.continueOnFail ?? false,
		getCredentials,
		helpers: {
			httpRequestWithAuthentication,
			httpRequest,
			returnJsonArray,
			constructExecutionMetaData,
			assertBinaryData: (itemIndex: number, property: string) => {
				const file = binaryOf(itemIndex, property);
				return {
					data: '',
					mimeType: file.mimeType,
					fileName: file.fileName,
					bytes: file.bytes.length,
				};
			},
			getBinaryDataBuffer: async (itemIndex: number, property: string) =>
				binaryOf(itemIndex, property).bytes,
		},
	} as unknown as IExecuteFunctions;
	return {
		context,
		requests,
		reads,
		plainRequests,
		getCredentials,
		httpRequestWithAuthentication,
		responsesLeft: responses,
	};
}

export function createLoadOptionsContext(options: {
	currentParams?: Record<string, unknown>;
	responses?: Array<FakeResponse | Error>;
}) {
	const requests: RecordedRequest[] = [];
	const responses = [...(options.responses ?? [])];
	const credentials = { apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL };
	const context = {
		getNode: () => node,
		getCurrentNodeParameter: (name: string, opts?: { extractValue?: boolean }) => {
			const value = options.currentParams?.[name];
			return opts?.extractValue && isLocator(value) ? value.value : value;
		},
		getCredentials: vi.fn(async () => credentials),
		helpers: { httpRequestWithAuthentication: fakeHttp(responses, requests, credentials) },
	} as unknown as ILoadOptionsFunctions;
	return { context, requests };
}

export function locator(value: string, mode = 'list') {
	return { __rl: true, mode, value };
}

export function jsonOf(output: INodeExecutionData[][]): IDataObject[] {
	return output[0].map((item) => item.json);
}
