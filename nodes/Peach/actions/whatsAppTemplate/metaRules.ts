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

interface TemplateToCheck {
	templateName: string;
	language: string;
	category: string;
	components: IDataObject[];
}

/** Every problem Meta or Peach would refuse, named, so all are fixed at once. Pure. */
export function templateProblems(template: TemplateToCheck): string[] {
	const { components } = template;
	const body = partsOf(components, 'body');
	return [
		...identityProblems(template),
		...bodyProblems(body),
		...exampleProblems([...partsOf(components, 'header'), ...body]),
		...headerProblems(partsOf(components, 'header')),
		...footerProblems(partsOf(components, 'footer')),
		...buttonsProblems(partsOf(components, 'buttons')),
	];
}

/** The components of one type (header, body, footer, buttons), in their order. */
function partsOf(components: IDataObject[], type: string): IDataObject[] {
	return components.filter((component) => component.component_type === type);
}

/** A component's text, or '' when it has none. */
function textOf(component: IDataObject): string {
	return typeof component.value === 'string' ? component.value : '';
}

/** The template's name, language and category. */
function identityProblems({ templateName, language, category }: TemplateToCheck): string[] {
	const problems: string[] = [];
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
	if (!CATEGORIES.includes(category))
		problems.push(`Category "${category}" is not one of ${CATEGORIES.join(', ')}`);
	return problems;
}

/** The body: present, not too long, and its variables where Meta accepts them. */
function bodyProblems(body: IDataObject[]): string[] {
	const problems: string[] = [];
	if (body.length === 0 || body.every((component) => textOf(component).trim() === ''))
		problems.push('Body is missing: every template needs body text');
	for (const component of body) {
		if (textOf(component).length > LIMITS.body)
			problems.push(`Body has ${textOf(component).length} characters; at most ${LIMITS.body}`);
		problems.push(...bodyVariableProblems(textOf(component)));
	}
	return problems;
}

/** Every variable of a text header or of the body without its example. */
function exampleProblems(parts: IDataObject[]): string[] {
	const problems: string[] = [];
	for (const component of parts) {
		const part = component.component_type === 'header' ? 'Header' : 'Body';
		if (component.component_type === 'header' && component.data_type !== 'text') continue;
		for (const name of placeholdersWithoutExample(textOf(component)))
			problems.push(
				`${part} variable "${name}" has no example: write {{${name} | example: '...'}}`,
			);
	}
	return problems;
}

/** A text header: not too long, at most one variable. */
function headerProblems(headers: IDataObject[]): string[] {
	const problems: string[] = [];
	for (const header of headers) {
		if (header.data_type === 'text') {
			if (textOf(header).length > LIMITS.headerText)
				problems.push(
					`Header text has ${textOf(header).length} characters; at most ${LIMITS.headerText}`,
				);
			if (placeholderNames(textOf(header)).length > 1)
				problems.push('Header text has more than one variable; Meta allows one');
		}
	}
	return problems;
}

/** The footer: not too long, no variables. */
function footerProblems(footers: IDataObject[]): string[] {
	const problems: string[] = [];
	for (const footer of footers) {
		if (textOf(footer).length > LIMITS.footer)
			problems.push(`Footer has ${textOf(footer).length} characters; at most ${LIMITS.footer}`);
		if (placeholderNames(textOf(footer)).length) problems.push('Footer may not have variables');
	}
	return problems;
}

/** How many buttons of each kind, then each button. */
function buttonsProblems(buttons: IDataObject[]): string[] {
	const problems: string[] = [];
	if (buttons.length > LIMITS.buttons)
		problems.push(`${buttons.length} buttons; at most ${LIMITS.buttons}`);
	const urls = buttons.filter((button) => button.sub_type === 'url');
	const phones = buttons.filter((button) => button.sub_type === 'phone_number');
	if (urls.length > LIMITS.urlButtons)
		problems.push(`${urls.length} URL buttons; at most ${LIMITS.urlButtons}`);
	if (phones.length > LIMITS.phoneButtons)
		problems.push(`${phones.length} phone number buttons; at most ${LIMITS.phoneButtons}`);
	buttons.forEach((button, index) =>
		problems.push(...buttonProblems(button, `Button ${index + 1}`)),
	);
	return problems;
}

/** One button (`at` names it, e.g. Button 2): its type, its label, its URL or phone number. */
function buttonProblems(button: IDataObject, at: string): string[] {
	const problems: string[] = [];
	const label = typeof button.name === 'string' ? button.name : '';
	if (!['quick_reply', 'url', 'phone_number'].includes(String(button.sub_type)))
		problems.push(
			`${at} type "${String(button.sub_type)}" is not quick_reply, url or phone_number`,
		);
	if (label.trim() === '') problems.push(`${at} has no text`);
	if (label.length > LIMITS.buttonText)
		problems.push(`${at} text "${label}" is longer than ${LIMITS.buttonText} characters`);
	if (button.sub_type === 'url') {
		// A URL button may end with one variable (WhatsApp's dynamic suffix), with its example.
		const variables = placeholderNames(textOf(button));
		const fixed = textOf(button).replace(/\{\{[^}]*\}\}$/, '');
		if (!/^https?:\/\/\S+$/.test(fixed) || /\{\{/.test(fixed))
			problems.push(
				`${at} URL "${textOf(button)}" is not an http(s) URL (one variable is allowed, at its end)`,
			);
		else if (variables.length === 1 && placeholdersWithoutExample(textOf(button)).length)
			problems.push(
				`${at} URL variable "${variables[0]}" has no example: write {{${variables[0]} | example: '...'}}`,
			);
	}
	if (button.sub_type === 'phone_number' && !/^\+[1-9]\d{6,14}$/.test(textOf(button)))
		problems.push(
			`${at} phone number "${textOf(button)}" is not + and the country code and number`,
		);
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
