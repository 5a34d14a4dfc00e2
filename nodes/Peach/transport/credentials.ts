import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
} from 'n8n-workflow';

import { normalizeBaseUrl } from '../../../credentials/PeachMessagingApi.credentials';
import { perExecution } from '../helpers/perExecution';

export const CREDENTIAL_TYPE = 'peachMessagingApi';

const decrypted = perExecution(
	async (
		context: IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions,
	): Promise<ICredentialsDecrypted> => {
		const reference = context.getNode().credentials?.[CREDENTIAL_TYPE];
		return {
			id: reference?.id ?? '',
			name: reference?.name ?? CREDENTIAL_TYPE,
			type: CREDENTIAL_TYPE,
			data: await context.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE),
		};
	},
);

/**
 * The node's credential, read (decrypted) once per execution and handed to n8n's authenticated
 * request, which then applies the credential's own authenticate() without reading it again.
 */
export async function credentialsOf(
	context: IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions,
): Promise<ICredentialsDecrypted> {
	return await decrypted(context);
}

/** The credential's Base URL, normalised as every request uses it. */
export async function baseUrlOf(
	context: IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions,
): Promise<string> {
	return normalizeBaseUrl((await credentialsOf(context)).data?.baseUrl);
}
