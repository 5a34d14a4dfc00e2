import type { IExecuteFunctions, IHttpRequestMethods } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { isLoopback } from '../helpers/address';
import { isPlainObject } from '../helpers/json';
import { baseUrlOf } from './credentials';
import { originOf } from './errors';

/** How long the bytes may take to reach storage. */
export const STORAGE_TIMEOUT_MS = 5 * 60_000;

/** The methods a direct upload may name: ActiveStorage uploads with PUT; POST is the other form. */
const UPLOAD_METHODS = ['PUT', 'POST'];

/**
 * Where the bytes may go: where Peach's docs send them, an https URL, and never this machine's own
 * addresses (a service on the n8n host) unless the credential's Base URL is on this machine too (a
 * local Peach sandbox, which serves its storage over http). Anything else from Peach's answer
 * (another scheme, a plain-http host, a method that is not an upload) is refused before a byte
 * leaves, so a tampered or wrong answer cannot send the file elsewhere.
 */
export function uploadTarget(
	upload: { url: string; method?: string },
	baseUrl: string,
): string | undefined {
	const method = (upload.method ?? 'PUT').toUpperCase();
	if (!UPLOAD_METHODS.includes(method)) return `the method ${method} is not PUT or POST`;
	let url: URL;
	try {
		url = new URL(upload.url);
	} catch {
		return 'the storage URL is not a URL';
	}
	if (isLoopback(url.href))
		return isLoopback(baseUrl) && ['https:', 'http:'].includes(url.protocol)
			? undefined
			: `the storage URL ${url.protocol}//${url.host} is on the n8n machine itself, while the Base URL is not`;
	if (url.protocol === 'https:') return undefined;
	return `the storage URL ${url.protocol}//${url.host} is not https`;
}

/** A direct upload as Peach's answer gives it: where the bytes go, with which headers and method. */
type DirectUpload = { url: string; headers: Record<string, string>; method?: string };

/** What storage answered: its status, its body, and where a redirect pointed. */
interface StorageAnswer {
	status: number;
	body: unknown;
	location: unknown;
}

/**
 * Sends a file's bytes to the storage URL a direct upload gave, with exactly the headers it gave.
 * This is storage, not the Peach API: the request goes without the credential, so the API key never
 * reaches that host.
 */
export async function putToStorage(
	context: IExecuteFunctions,
	upload: DirectUpload,
	bytes: Buffer,
	itemIndex: number,
): Promise<void> {
	const refused = uploadTarget(upload, await baseUrlOf(context));
	if (refused) {
		throw new NodeApiError(
			context.getNode(),
			{ message: `storage refused: ${refused}` },
			{
				message: `Peach's direct upload named a place the node does not send files to: ${refused}`,
				description:
					'Nothing was uploaded or sent. The node sends files only to an https storage URL with PUT or POST, and to this machine only when the Base URL is on it too (a local sandbox). Check the Base URL of the credential.',
				itemIndex,
			},
		);
	}
	const answer = await sendBytes(context, upload, bytes, itemIndex);
	checkStorageAnswer(context, answer, itemIndex);
}

/** The one request to storage; a failure without an answer is an error that says nothing was finalized. */
async function sendBytes(
	context: IExecuteFunctions,
	upload: DirectUpload,
	bytes: Buffer,
	itemIndex: number,
): Promise<StorageAnswer> {
	const method = (upload.method ?? 'PUT').toUpperCase() as IHttpRequestMethods;
	try {
		const response = (await context.helpers.httpRequest({
			method,
			url: upload.url,
			headers: upload.headers,
			body: bytes,
			json: false,
			ignoreHttpStatusErrors: true,
			returnFullResponse: true,
			// Never followed: a redirect could take the file where uploadTarget would refuse it.
			disableFollowRedirect: true,
			timeout: STORAGE_TIMEOUT_MS,
		})) as { statusCode?: number; body?: unknown; headers?: Record<string, unknown> };
		return {
			status: Number(response.statusCode ?? 0),
			body: response.body,
			location: response.headers?.location,
		};
	} catch (error) {
		const code = isPlainObject(error) && typeof error.code === 'string' ? error.code : 'no answer';
		throw new NodeApiError(
			context.getNode(),
			{ message: `storage: ${code}` },
			{
				message: `Could not send the file to Peach's storage (${code})`,
				description: 'Nothing was finalized; run the node again to start a new upload.',
				itemIndex,
			},
		);
	}
}

/** Storage's answer: a redirect (never followed) or any other status but 2xx is an error. */
function checkStorageAnswer(
	context: IExecuteFunctions,
	{ status, body, location }: StorageAnswer,
	itemIndex: number,
): void {
	if (status >= 300 && status < 400) {
		throw new NodeApiError(
			context.getNode(),
			{ message: `storage answered ${status}` },
			{
				message: `Peach's storage answered with a redirect (${status})${typeof location === 'string' ? ` to ${originOf(location)}` : ''}, which the node does not follow`,
				description:
					'Nothing was uploaded or sent: the file goes only to the storage URL Peach named. Check the Base URL of the credential.',
				httpCode: String(status),
				itemIndex,
			},
		);
	}
	if (status < 200 || status >= 300) {
		const text = Buffer.isBuffer(body)
			? body.toString('utf8')
			: typeof body === 'string'
				? body
				: '';
		throw new NodeApiError(
			context.getNode(),
			{ message: `storage answered ${status}` },
			{
				message: `Peach's storage refused the file (${status})${text ? `: ${text.slice(0, 200)}` : ''}`,
				description:
					'The upload was not finalized. Check the file (its checksum and size are checked by the storage) and run again.',
				httpCode: String(status),
				itemIndex,
			},
		);
	}
}
