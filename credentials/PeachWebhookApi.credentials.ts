import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * The shared secret Peach sends to the Peach Trigger (as ?token=… or in a header). Kept in a
 * credential so it is stored encrypted, never in the workflow or its executions. Peach has no API to
 * check it against: the Peach Trigger tests it (testedBy) for length and form.
 */
export class PeachWebhookApi implements ICredentialType {
	name = 'peachWebhookApi';

	displayName = 'Peach Webhook Secret API';

	icon: Icon = { light: 'file:../icons/peach.svg', dark: 'file:../icons/peach.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-peach/n8n-nodes-peach#trigger';

	properties: INodeProperties[] = [
		{
			displayName: 'Secret',
			name: 'secret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				"A long random text (16 characters or more) that Peach must send: add it to the webhook URL as ?token=… or as the header in Peach's webhook settings",
		},
	];
}
