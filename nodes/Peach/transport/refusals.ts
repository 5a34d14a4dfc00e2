import type { PeachRequest } from './types';

/** What the user reads about Peach's answer: the message, and the fix as description. */
export interface Explanation {
	message: string;
	description: string;
}

/** A refusal of the request as sent (400, 401, 403, 409, 422, or a status without words of its own). */
export function explainRefusal(
	statusCode: number,
	request: PeachRequest,
	text: string,
): Explanation {
	switch (statusCode) {
		case 400:
			return {
				message: text || 'Peach could not read the request (400 Bad Request)',
				description: 'Check the values of the fields named in the message.',
			};
		case 401:
			return {
				message: `Peach rejected the API key: ${text || 'Unauthorized'}`,
				description:
					'Open the Peach API credential and paste a current key from the Peach web app (Developers → API Keys). The key is sent as the raw Authorization header, without "Bearer". Check that Base URL is your Peach address.',
			};
		case 403:
			return {
				message: `Peach refused access: ${text || 'Forbidden'}`,
				description:
					'This API key may not use this endpoint. Use an account API key with access to it.',
			};
		case 409:
			return {
				message: text || 'Conflict (409)',
				description:
					'The request conflicts with the current state in Peach. Adjust the fields named in the message.',
			};
		case 422:
			return {
				message: text || 'Peach rejected the values sent (422 Unprocessable Entity)',
				description: request.delivers
					? 'Peach validated the request and refused it, so it was not queued. Change the fields named in the message.'
					: 'Peach validated the request and refused it. Change the fields named in the message and run again.',
			};
		default:
			return {
				message: text || `Peach answered with HTTP ${statusCode}`,
				description: 'Check the request fields and the Base URL in the credential.',
			};
	}
}
