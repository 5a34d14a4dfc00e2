import type { IDataObject } from 'n8n-workflow';

/**
 * Template statuses WhatsApp does not send. Peach documents no list of statuses; these are the ones
 * seen (disabled in its docs; draft, rejected, pending and paused in its tools): any other status is
 * left to Peach. One list for the run's check (actions/templateSend/templateCheck.ts) and the
 * editor's (the Variables list says so as soon as the template is chosen).
 */
export const NOT_SENDABLE = ['pending', 'rejected', 'draft', 'paused', 'disabled'];

/** A template's status, lower case; '' when Peach gave none. */
export const statusOf = (template: IDataObject) =>
	typeof template.status === 'string' ? template.status.toLowerCase() : '';

/**
 * A template as a person knows it: `"spring_promo"`, with its ID only when that says more
 * (`"spring_promo" (wat_promo)`, not `"spring_promo" (spring_promo)`).
 */
export function templateNamed(template: IDataObject, id: string): string {
	const name = typeof template.name === 'string' && template.name ? template.name : undefined;
	if (name === undefined) return id;
	return name === id ? `"${name}"` : `"${name}" (${id})`;
}

/** Why a template in a status WhatsApp does not send is refused. */
export const notSendableText = (named: string, status: string) =>
	`Template ${named} is ${status}: WhatsApp sends approved templates only`;

/** What to do about it. */
export const notSendableFix = (status: string) =>
	status === 'pending'
		? 'Meta is still reviewing it (usually minutes to a day). Pick an approved template, or run again once WhatsApp Template → Get shows it approved.'
		: 'Pick an approved template (the From List choice shows each one with its status), or fix this one in Peach and submit it again.';
