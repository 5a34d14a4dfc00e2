import { constructExecutionMetaData, returnJsonArray } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	INodeExecutionData,
	INodeProperties,
	NodeOperationError,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import { vi } from 'vitest';

import { PeachMessagingApi } from '../../../credentials/PeachMessagingApi.credentials';
import { Peach } from '../../../nodes/Peach/Peach.node';
import { type Lineage, newExecution } from './n8nRecovery';
import type { FakePeachList } from './peachList';
import {
	customDataOf,
	executionKeys,
	newWaitingExecution,
	type WaitingExecution,
} from './n8nExecutionData';
import { n8nRequestHelpers } from './wire.mts';
import {
	expressionEvaluator,
	type ParameterRead,
	parameterGetter,
	resolveParameters,
} from './parameters';

export type { ParameterRead } from './parameters';

/** A fake answer from Peach as httpRequestWithAuthentication returns it with returnFullResponse. */
export interface FakeResponse {
	statusCode: number;
	body?: unknown;
	headers?: Record<string, string>;
}

/**
 * An answer that never comes: the request is under way when the process running the execution dies
 * (the test then abandons the run, as n8n does with a killed worker's).
 */
export const NEVER_ANSWERED = Symbol('never answered');

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

/** n8n's waiting-webhook address in tests, and the execution the harness runs. */
export const TEST_WAITING_BASE = 'https://n8n.test/webhook-waiting';
export const TEST_EXECUTION_ID = '231';
export const TEST_WORKFLOW_ID = 'wf-1';

/** A resume link as n8n signs it: <address>/<execution>/<node>?<parameters>&signature=<hex>. */
export function signedResumeUrl(
	parameters: Record<string, string> = {},
	waitingBase = TEST_WAITING_BASE,
): string {
	const url = new URL(`${waitingBase}/${TEST_EXECUTION_ID}/${node.id}`);
	for (const [key, value] of Object.entries(parameters)) url.searchParams.set(key, value);
	url.searchParams.set('signature', 'a1b2c3d4e5f6');
	return url.toString();
}

export interface RecordedRequest {
	credentialType: string;
	/** What the node asked for. */
	options: IHttpRequestOptions;
	/** What went on the wire: the options after the credential's authenticate (Base URL, key). */
	sent: IHttpRequestOptions;
	/** The full URL that was called. */
	url: string;
	/** The body as Peach reads it: the JSON text the node sent, parsed. */
	body: unknown;
	/** When the request left and when its answer came (performance.now()). */
	startedAt: number;
	answeredAt?: number;
}

export interface ContextOptions {
	/**
	 * What the user set, for every item or one map per item. The node then gets them as n8n gives
	 * them: with the description's defaults, without the fields the description hides.
	 */
	params: Record<string, unknown> | Array<Record<string, unknown>>;
	items?: number;
	/** The input items' JSON (what `{{ $json.x }}` reads); by default `{ index }`. */
	inputs?: IDataObject[];
	/** The node's properties, when a test runs another registry than the node's. */
	properties?: INodeProperties[];
	/** Answers in order; an Error is thrown as a transport failure. */
	responses?: Array<FakeResponse | Error | typeof NEVER_ANSWERED>;
	/** Peach's answer to each request, decided when it arrives (instead of `responses`). */
	answer?: (request: RecordedRequest) => FakeResponse;
	/**
	 * Peach's templates, for the read every operation that sends one makes (once per execution and
	 * template) to check its variables: those reads are answered from here and listed apart, in
	 * `templateReads`, so a test of a send lists only the send's requests. A template not named here
	 * is one without variables. `'responses'`: template reads are requests like any other, answered
	 * from `responses` (for tests of the read itself).
	 */
	templates?: Record<string, IDataObject> | 'responses';
	continueOnFail?: boolean;
	baseUrl?: string;
	/** The credential's API key; TEST_API_KEY by default. */
	apiKey?: string;
	timezone?: string;
	/** Binary data per item index: the file under the binary property `data` (or `property`). */
	binary?: Record<
		number,
		{ bytes: Buffer; mimeType: string; fileName?: string; property?: string }
	>;
	/** Answers of requests made without the credential (e.g. to storage). */
	plainResponses?: Array<FakeResponse | Error>;
	/** How long Peach takes to answer each request (n8n's sleep: a test may fake it). */
	answerDelayMs?: (request: RecordedRequest) => number;
	/**
	 * The execution this try belongs to: its node context, n8n's deduplication store, mode and run
	 * index (n8nRecovery.ts models Retry On Fail, the editor's Retry and a crash). A new one by default.
	 */
	lineage?: Lineage;
	/**
	 * n8n's own request functions instead of the fakes (wire.ts): requests really go to `baseUrl`
	 * (a local server), and follow redirects or resolve paths exactly as n8n does.
	 */
	wire?: boolean;
	/**
	 * The execution's data (its custom data: where Send and Wait keeps its wait); a new one by
	 * default, of the lineage's n8n line.
	 */
	execution?: WaitingExecution;
	/** n8n's waiting-webhook address (WEBHOOK_URL + /webhook-waiting); TEST_WAITING_BASE by default. */
	waitingBase?: string;
	/**
	 * The ID of the node's Peach credential. What an n8n process keeps between executions (a
	 * template read) is kept per credential: by default each context has a credential of its own, as
	 * if each execution ran in a fresh process; executions given the same ID share what is kept.
	 */
	credentialId?: string;
}

function isLocator(value: unknown): value is { __rl?: boolean; mode: string; value: unknown } {
	return typeof value === 'object' && value !== null && 'mode' in value && 'value' in value;
}

const credential = new PeachMessagingApi();

/** A template read: `GET …/api/v1/whats_app_templates/{id}`. */
const TEMPLATE_READ = /\/api\/v1\/whats_app_templates\/([^/?]+)$/;
/** Peach's list of template messages: `GET …/api/v1/template_messages`. */
const TEMPLATE_MESSAGES = /\/api\/v1\/template_messages$/;
/** The event types that queue a template message to one contact. */
const QUEUES_A_TEMPLATE_MESSAGE = ['send_template_message', 'connect_to_ai_agent'];

/** Peach queued the template message this request sends (it accepted it). */
function queued(list: FakePeachList | undefined, request: RecordedRequest): void {
	const body = request.body as
		| {
				event_type?: string;
				contact?: { phone_number?: string };
				template_message?: { whats_app_template_id?: string };
		  }
		| undefined;
	if (!list || !body || !QUEUES_A_TEMPLATE_MESSAGE.includes(String(body.event_type))) return;
	list.accept(
		String(body.contact?.phone_number),
		String(body.template_message?.whats_app_template_id),
	);
}

/**
 * httpRequestWithAuthentication as n8n runs it: the credential's own authenticate() adds the key
 * and the Base URL, then the answer comes from the list (an Error is a transport failure).
 */
function fakeHttp(
	responses: Array<FakeResponse | Error | typeof NEVER_ANSWERED>,
	requests: RecordedRequest[],
	credentials: { apiKey: string; baseUrl: string },
	answerDelayMs: (request: RecordedRequest) => number = () => 0,
	answer?: (request: RecordedRequest) => FakeResponse,
	templates: ContextOptions['templates'] = {},
	templateReads: string[] = [],
	peachList?: FakePeachList,
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
			const recorded: RecordedRequest = {
				credentialType,
				options: structuredClone(options),
				sent: structuredClone(sent),
				url,
				body: typeof sent.body === 'string' ? JSON.parse(sent.body) : sent.body,
				startedAt: performance.now(),
			};
			const templateId = TEMPLATE_READ.exec(url)?.[1];
			if (templateId !== undefined && templates !== 'responses' && options.method === 'GET') {
				templateReads.push(decodeURIComponent(templateId));
				const known = templates[decodeURIComponent(templateId)];
				return {
					statusCode: 200,
					body: known ?? { id: decodeURIComponent(templateId), status: 'approved', components: [] },
					headers: {},
				};
			}
			if (peachList && options.method === 'GET' && TEMPLATE_MESSAGES.test(url))
				return { statusCode: 200, body: peachList.answer(sent.qs ?? {}), headers: {} };
			requests.push(recorded);
			const next = answer ? answer(recorded) : responses.shift();
			const delay = answerDelayMs(recorded);
			if (delay > 0) await sleep(delay);
			recorded.answeredAt = performance.now();
			if (next === undefined) throw new Error(`No fake response left for ${options.method} ${url}`);
			if (next === NEVER_ANSWERED) {
				if (peachList?.unansweredReachPeach) queued(peachList, recorded);
				return await new Promise<never>(() => undefined);
			}
			if (next instanceof Error) throw next;
			if (options.method === 'POST' && next.statusCode >= 200 && next.statusCode < 300)
				queued(peachList, recorded);
			return { statusCode: next.statusCode, body: next.body, headers: next.headers ?? {} };
		},
	);
}

let credentialsMade = 0;

export function createExecuteContext(options: ContextOptions) {
	const executionNode: INode = {
		...node,
		credentials: {
			peachMessagingApi: {
				id: options.credentialId ?? `credential-${++credentialsMade}`,
				name: 'Peach API',
			},
		},
	};
	const requests: RecordedRequest[] = [];
	const templateReads: string[] = [];
	const reads: ParameterRead[] = [];
	const responses = [...(options.responses ?? [])];
	const itemCount =
		options.items ??
		options.inputs?.length ??
		(Array.isArray(options.params) ? options.params.length : 1);
	const credentials = {
		apiKey: options.apiKey ?? TEST_API_KEY,
		baseUrl: options.baseUrl ?? TEST_BASE_URL,
	};
	const lineage = options.lineage ?? newExecution(undefined, { executionId: TEST_EXECUTION_ID });
	const httpRequestWithAuthentication = fakeHttp(
		responses,
		requests,
		credentials,
		options.answerDelayMs,
		options.answer,
		options.templates,
		templateReads,
		// Peach's list of template messages answers from what it queued in a test of n8n's retries
		// (given its execution); elsewhere the list is a request like any other.
		options.lineage ? lineage.peach : undefined,
	);
	const getCredentials = vi.fn(async () => credentials);
	const plainRequests: IHttpRequestOptions[] = [];
	const plainResponses = [...(options.plainResponses ?? [])];
	/** Binary reads and storage requests, in the order they happened ("read 3", "PUT <url>"). */
	const events: string[] = [];
	const httpRequest = vi.fn(async (request: IHttpRequestOptions) => {
		events.push(`${request.method} ${request.url}`);
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
	const jsonOf = (index: number): IDataObject => options.inputs?.[index] ?? { index };
	const peach = new Peach().description;
	const description = options.properties ? { ...peach, properties: options.properties } : peach;
	const resolved = new Map<number, ReturnType<typeof resolveParameters>>();
	// One set of parameters for every item, as n8n holds a node's parameters (`params` given per item
	// models items whose expressions gave those values).
	const resolvedOf = (index: number) => {
		const at = Array.isArray(options.params) ? index : 0;
		if (!resolved.has(at)) {
			const given = Array.isArray(options.params) ? options.params[at] : options.params;
			resolved.set(at, resolveParameters(description, given ?? {}));
		}
		return resolved.get(at) as ReturnType<typeof resolveParameters>;
	};
	const putExecutionToWait = vi.fn<(waitTill: Date) => Promise<void>>(async () => undefined);
	const workflowId = lineage.workflowId ?? TEST_WORKFLOW_ID;
	const hints: Array<{ message: string }> = [];
	const execution = options.execution ?? newWaitingExecution(lineage.n8nLine ?? 2, lineage.mode);
	// n8n 2.x gives nodes this.customData; n8n 1.x only the data proxy's $execution.customData.
	const customData = execution.n8nLine === 2 ? { customData: customDataOf(execution) } : {};
	const context = {
		...customData,
		getInputData: () => Array.from({ length: itemCount }, (_, index) => ({ json: jsonOf(index) })),
		getExecutionId: () => lineage.executionId,
		// n8n's saved executions, in a test of n8n's retries (given its execution): the record then
		// looks at them after a run (its own pauses would move a fake clock elsewhere).
		...(options.lineage
			? {
					getExecutionDataById: async (executionId: string) => {
						await lineage.executions.readsWait;
						return lineage.executions.read(executionId);
					},
				}
			: {}),
		getMode: () => lineage.mode,
		getExecutionContext: () =>
			lineage.establishedAt === undefined
				? undefined
				: {
						version: 1,
						establishedAt: lineage.establishedAt,
						source: 'webhook',
						...(lineage.n8nLine === 1
							? {}
							: { triggerNode: { name: 'Webhook', type: 'n8n-nodes-base.webhook' } }),
					},
		getContext: (type: string) => {
			if (type !== 'node') throw new Error(`unexpected context ${type}`);
			return lineage.nodeContext;
		},
		getWorkflow: () => ({ id: workflowId, name: 'Test', active: false }),
		getWorkflowDataProxy: () => ({
			$runIndex: lineage.runIndex,
			$execution: executionKeys(execution).$execution,
			// The trigger's output, as n8n's `$('Webhook').all()` gives it.
			$: (name: string) => ({
				all: () => {
					if (name !== 'Webhook') throw new Error(`Node '${name}' hasn't been executed`);
					return lineage.trigger.map((json) => ({ json }));
				},
			}),
		}),
		addExecutionHints: (...added: Array<{ message: string }>) => hints.push(...added),
		getSignedResumeUrl: (parameters: Record<string, string> = {}) =>
			signedResumeUrl(parameters, options.waitingBase),
		putExecutionToWait,
		getNodeParameter: parameterGetter(resolvedOf, jsonOf, reads),
		evaluateExpression: expressionEvaluator(jsonOf, reads),
		getNode: () => executionNode,
		getTimezone: () => options.timezone ?? 'UTC',
		continueOnFail: () => options.continueOnFail ?? false,
		getCredentials,
		helpers: {
			...lineage.store.helpersFor(workflowId, node.id, lineage.process),
			httpRequestWithAuthentication,
			httpRequest,
			...(options.wire ? n8nRequestHelpers(node) : {}),
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
			getBinaryDataBuffer: async (itemIndex: number, property: string) => {
				events.push(`read ${itemIndex}`);
				return binaryOf(itemIndex, property).bytes;
			},
		},
	} as unknown as IExecuteFunctions;
	return {
		context,
		requests,
		templateReads,
		reads,
		plainRequests,
		getCredentials,
		httpRequestWithAuthentication,
		putExecutionToWait,
		responsesLeft: responses,
		lineage,
		hints,
		events,
		execution,
	};
}

/** Runs the Peach node once in a new context; the output, or the error it threw. */
export async function runPeach(options: ContextOptions) {
	const harness = createExecuteContext(options);
	const output = await new Peach().execute
		.call(harness.context)
		.catch((error: unknown) => error as Error);
	return { ...harness, output };
}

/**
 * Runs the Peach node once over `inputs` (one item each), Peach answering `answer` to every request:
 * the first output's items, or the error the node threw (then no items).
 */
export async function runOverInputs(
	params: Record<string, unknown>,
	inputs: IDataObject[],
	answer: FakeResponse,
	options: Omit<ContextOptions, 'params' | 'inputs'> = {},
) {
	const { output, ...run } = await runPeach({
		params,
		inputs,
		items: inputs.length,
		responses: inputs.map(() => answer),
		...options,
	});
	return output instanceof Error
		? { ...run, items: [] as INodeExecutionData[], error: output as NodeOperationError }
		: { ...run, items: output[0], error: undefined };
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
		// What a list search or the mapper reads is what is tested: template reads too.
		helpers: {
			httpRequestWithAuthentication: fakeHttp(
				responses,
				requests,
				credentials,
				undefined,
				undefined,
				'responses',
			),
		},
	} as unknown as ILoadOptionsFunctions;
	return { context, requests };
}

export function locator(value: string, mode = 'list') {
	return { __rl: true, mode, value };
}

/** Each output item as [its field `key`, or else its error; the input items it is paired to]. */
export function pairedOutcomes(
	items: Array<{ json: Record<string, unknown>; pairedItem?: unknown }>,
	key: string,
) {
	return items.map((item) => [item.json[key] ?? item.json.error, item.pairedItem]);
}

export function jsonOf(output: INodeExecutionData[][]): IDataObject[] {
	return output[0].map((item) => item.json);
}
