import { constructExecutionMetaData, returnJsonArray } from 'n8n-core';
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	INodeExecutionData,
} from 'n8n-workflow';
import { vi } from 'vitest';

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
	options: IHttpRequestOptions;
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
}

function isLocator(value: unknown): value is { __rl?: boolean; mode: string; value: unknown } {
	return typeof value === 'object' && value !== null && 'mode' in value && 'value' in value;
}

function fakeHttp(responses: Array<FakeResponse | Error>, requests: RecordedRequest[]) {
	return vi.fn(async (credentialType: string, options: IHttpRequestOptions) => {
		requests.push({ credentialType, options: structuredClone(options) });
		const next = responses.shift();
		if (next === undefined)
			throw new Error(`No fake response left for ${options.method} ${options.url}`);
		if (next instanceof Error) throw next;
		return { statusCode: next.statusCode, body: next.body, headers: next.headers ?? {} };
	});
}

function parameterGetter(params: ContextOptions['params']) {
	return (
		name: string,
		itemIndex: number,
		fallback?: unknown,
		options?: { extractValue?: boolean },
	) => {
		const map = Array.isArray(params) ? params[itemIndex] : params;
		const value = name in map ? map[name] : fallback;
		if (value === undefined) throw new Error(`Could not get parameter "${name}"`);
		if (options?.extractValue && isLocator(value)) return value.value;
		return value;
	};
}

export function createExecuteContext(options: ContextOptions) {
	const requests: RecordedRequest[] = [];
	const responses = [...(options.responses ?? [])];
	const itemCount = options.items ?? (Array.isArray(options.params) ? options.params.length : 1);
	const httpRequestWithAuthentication = fakeHttp(responses, requests);
	const context = {
		getInputData: () => Array.from({ length: itemCount }, (_, index) => ({ json: { index } })),
		getNodeParameter: parameterGetter(options.params),
		getNode: () => node,
		getTimezone: () => options.timezone ?? 'UTC',
		continueOnFail: () => options.continueOnFail ?? false,
		getCredentials: vi.fn(async () => ({
			apiKey: TEST_API_KEY,
			baseUrl: options.baseUrl ?? TEST_BASE_URL,
		})),
		helpers: {
			httpRequestWithAuthentication,
			returnJsonArray,
			constructExecutionMetaData,
		},
	} as unknown as IExecuteFunctions;
	return { context, requests, httpRequestWithAuthentication, responsesLeft: responses };
}

export function createLoadOptionsContext(options: {
	currentParams?: Record<string, unknown>;
	responses?: Array<FakeResponse | Error>;
}) {
	const requests: RecordedRequest[] = [];
	const responses = [...(options.responses ?? [])];
	const context = {
		getNode: () => node,
		getCurrentNodeParameter: (name: string, opts?: { extractValue?: boolean }) => {
			const value = options.currentParams?.[name];
			return opts?.extractValue && isLocator(value) ? value.value : value;
		},
		getCredentials: vi.fn(async () => ({ apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL })),
		helpers: { httpRequestWithAuthentication: fakeHttp(responses, requests) },
	} as unknown as ILoadOptionsFunctions;
	return { context, requests };
}

export function locator(value: string, mode = 'list') {
	return { __rl: true, mode, value };
}

export function jsonOf(output: INodeExecutionData[][]): IDataObject[] {
	return output[0].map((item) => item.json);
}
