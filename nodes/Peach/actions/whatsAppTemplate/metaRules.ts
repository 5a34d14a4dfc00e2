import type { IDataObject } from 'n8n-workflow';

import {
	placeholderNames,
	placeholdersWithoutExample,
	splitAtPlaceholders,
} from '../../helpers/templateVariables';

/**
 * Meta's rules for a WhatsApp template, in one place: the limits of its parts, its categories, what
 * Meta's review rejects in a body's variables (refused before Create sends anything), and what it may
 * reject (hints). Used by Create and Update. Pure.
 */

/** Meta's limits for template parts, checked before anything is sent. */
const LIMITS = {
	name: 512,
	headerText: 60,
	body: 1024,
	footer: 60,
	buttonText: 25,
	buttons: 10,
	urlButtons: 2,
	phoneButtons: 1,
};

export const CATEGORIES = ['AUTHENTICATION', 'MARKETING', 'UTILITY'];

/** Every problem Meta or Peach would refuse, named, so all are fixed at once. Pure. */
export function templateProblems(template: {
	templateName: string;
	language: string;
	category: string;
	components: IDataObject[];
}): string[] {
	const problems: string[] = [];
	const { templateName, language, components } = template;
	if (!/^[a-z0-9_]+$/.test(templateName))
		problems.push(
			`Name "${templateName}" may only have lowercase letters, digits and underscores (e.g. ${
				templateName
					.toLowerCase()
					.replace(/[^a-z0-9_]+/g, '_')
					.replace(/^_+|_+$/g, '') || 'order_confirmation'
			})`,
		);
	if (templateName.length > LIMITS.name)
		problems.push(`Name is longer than ${LIMITS.name} characters`);
	if (!/^[a-z]{2,3}(_[A-Z]{2})?$/.test(language))
		problems.push(`Language "${language}" is not a language code such as en, en_US or pt_BR`);
	if (!CATEGORIES.includes(template.category))
		problems.push(`Category "${template.category}" is not one of ${CATEGORIES.join(', ')}`);
	const of = (type: string) => components.filter((component) => component.component_type === type);
	const text = (component: IDataObject) =>
		typeof component.value === 'string' ? component.value : '';
	const body = of('body');
	if (body.length === 0 || body.every((component) => text(component).trim() === ''))
		problems.push('Body is missing: every template needs body text');
	for (const component of body) {
		if (text(component).length > LIMITS.body)
			problems.push(`Body has ${text(component).length} characters; at most ${LIMITS.body}`);
		problems.push(...bodyVariableProblems(text(component)));
	}
	for (const component of [...of('header'), ...body]) {
		const part = component.component_type === 'header' ? 'Header' : 'Body';
		if (component.component_type === 'header' && component.data_type !== 'text') continue;
		for (const name of placeholdersWithoutExample(text(component)))
			problems.push(
				`${part} variable "${name}" has no example: write {{${name} | example: '...'}}`,
			);
	}
	for (const header of of('header')) {
		if (header.data_type === 'text') {
			if (text(header).length > LIMITS.headerText)
				problems.push(
					`Header text has ${text(header).length} characters; at most ${LIMITS.headerText}`,
				);
			if (placeholderNames(text(header)).length > 1)
				problems.push('Header text has more than one variable; Meta allows one');
		}
	}
	for (const footer of of('footer')) {
		if (text(footer).length > LIMITS.footer)
			problems.push(`Footer has ${text(footer).length} characters; at most ${LIMITS.footer}`);
		if (placeholderNames(text(footer)).length) problems.push('Footer may not have variables');
	}
	const buttons = of('buttons');
	if (buttons.length > LIMITS.buttons)
		problems.push(`${buttons.length} buttons; at most ${LIMITS.buttons}`);
	const urls = buttons.filter((button) => button.sub_type === 'url');
	const phones = buttons.filter((button) => button.sub_type === 'phone_number');
	if (urls.length > LIMITS.urlButtons)
		problems.push(`${urls.length} URL buttons; at most ${LIMITS.urlButtons}`);
	if (phones.length > LIMITS.phoneButtons)
		problems.push(`${phones.length} phone number buttons; at most ${LIMITS.phoneButtons}`);
	buttons.forEach((button, index) => {
		const label = typeof button.name === 'string' ? button.name : '';
		const at = `Button ${index + 1}`;
		if (!['quick_reply', 'url', 'phone_number'].includes(String(button.sub_type)))
			problems.push(
				`${at} type "${String(button.sub_type)}" is not quick_reply, url or phone_number`,
			);
		if (label.trim() === '') problems.push(`${at} has no text`);
		if (label.length > LIMITS.buttonText)
			problems.push(`${at} text "${label}" is longer than ${LIMITS.buttonText} characters`);
		if (button.sub_type === 'url') {
			// A URL button may end with one variable (WhatsApp's dynamic suffix), with its example.
			const variables = placeholderNames(text(button));
			const fixed = text(button).replace(/\{\{[^}]*\}\}$/, '');
			if (!/^https?:\/\/\S+$/.test(fixed) || /\{\{/.test(fixed))
				problems.push(
					`${at} URL "${text(button)}" is not an http(s) URL (one variable is allowed, at its end)`,
				);
			else if (variables.length === 1 && placeholdersWithoutExample(text(button)).length)
				problems.push(
					`${at} URL variable "${variables[0]}" has no example: write {{${variables[0]} | example: '...'}}`,
				);
		}
		if (button.sub_type === 'phone_number' && !/^\+[1-9]\d{6,14}$/.test(text(button)))
			problems.push(
				`${at} phone number "${text(button)}" is not + and the country code and number`,
			);
	});
	return problems;
}

/** Has a letter or a digit: a text around variables that is more than spaces and punctuation. */
const WORDY = /[\p{L}\p{N}]/u;

/**
 * What Meta's review rejects in a body's variables, as its guidelines (and Twilio's error 63040) say:
 * a body that starts or ends with a variable (punctuation alone does not count as text), or two
 * variables with only spaces between them. Pure.
 */
export function bodyVariableProblems(text: string): string[] {
	const { texts, names } = splitAtPlaceholders(text);
	if (names.length === 0) return [];
	const problems: string[] = [];
	if (!WORDY.test(texts[0]))
		problems.push(
			`Body starts with the variable {{${names[0]}}}; Meta rejects a body that starts with a variable: put words before it (e.g. "Hello {{${names[0]}}}")`,
		);
	if (!WORDY.test(texts[texts.length - 1]))
		problems.push(
			`Body ends with the variable {{${names[names.length - 1]}}}; Meta rejects a body that ends with a variable: put words after it (e.g. "{{${names[names.length - 1]}}} Thank you.")`,
		);
	for (let index = 1; index < names.length; index++) {
		if (texts[index].trim() === '')
			problems.push(
				`Body has {{${names[index - 1]}}} and {{${names[index]}}} side by side; Meta rejects variables with nothing between them: put words between them`,
			);
	}
	return problems;
}

/**
 * Whether a body has few words for its variables: template providers observe that Meta's review
 * rejects a body with fewer than 2n + 1 words besides its n variables. Not a published rule of Meta's,
 * so a hint, not a refusal. Pure.
 */
export function bodyWordsHint(text: string): string | undefined {
	const { texts, names } = splitAtPlaceholders(text);
	if (names.length === 0) return undefined;
	const words = texts
		.join(' ')
		.split(/\s+/)
		.filter((word) => WORDY.test(word)).length;
	const needed = 2 * names.length + 1;
	return words < needed
		? `The body has ${names.length} variable${names.length === 1 ? '' : 's'} and ${words} other word${words === 1 ? '' : 's'}. Meta's review often rejects a template with too many variables for its length (providers observe at least ${needed} words for ${names.length}): add words, or use fewer variables.`
		: undefined;
}

export interface ComponentChange {
	id?: string;
	change?: string;
	value?: string;
}

/**
 * What Meta's review would reject in a changed text if it is the template's body. A change names its
 * component by ID only, so the node cannot tell a body from a header or a button: a hint, not a
 * refusal (a URL, which may end with its variable, is not looked at). Pure.
 */
export function bodyTextHints(change: ComponentChange): string[] {
	const value = change.change === 'remove' ? '' : (change.value ?? '').trim();
	if (value === '' || /^https?:\/\//i.test(value)) return [];
	const hints = bodyVariableProblems(value).map((problem) => `if this is the body: ${problem}.`);
	const words = bodyWordsHint(value);
	return words ? [...hints, `if this is the body: ${words}`] : hints;
}
