import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from './json';

/** A named variable of a template, with the example Peach's syntax may give (`{{name | example: 'Ana'}}`). */
export interface TemplateVariable {
	name: string;
	example?: string;
	/** Where it was found: header, body, footer, buttons. */
	component: string;
}

/**
 * A variable: named (`{{first_name}}`, Peach's templates) or numbered (`{{1}}`, Meta's own syntax,
 * in case a template carries it), with Peach's optional example.
 */
const PLACEHOLDER =
	/\{\{\s*([A-Za-z_][\w.]*|\d+)\s*(?:\|\s*example\s*:\s*(?:'([^']*)'|"([^"]*)"))?\s*\}\}/g;

/**
 * The variables of a template, read from its components' text in order of appearance, each once.
 * A media header (image, video, document) adds `header_media`, the variable Peach documents for it.
 */
export function templateVariables(template: unknown): TemplateVariable[] {
	const components =
		isPlainObject(template) && Array.isArray(template.components)
			? (template.components as unknown[]).filter(isPlainObject)
			: [];
	const found = new Map<string, TemplateVariable>();
	const sorted = [...components].sort((a, b) => Number(a.index ?? 0) - Number(b.index ?? 0));
	for (const component of sorted) {
		const type = typeof component.component_type === 'string' ? component.component_type : '';
		const dataType = typeof component.data_type === 'string' ? component.data_type : 'text';
		if (type === 'header' && ['image', 'video', 'document'].includes(dataType)) {
			if (!found.has('header_media'))
				found.set('header_media', { name: 'header_media', component: 'header' });
			continue;
		}
		const text = typeof component.value === 'string' ? component.value : '';
		for (const match of text.matchAll(PLACEHOLDER)) {
			const [, name, single, double] = match;
			const example = single ?? double;
			const known = found.get(name);
			if (!known) found.set(name, { name, example, component: type || 'body' });
			else if (known.example === undefined && example !== undefined) known.example = example;
		}
	}
	return [...found.values()];
}

/** Placeholders in a text that have no example (Meta needs one for every variable). */
export function placeholdersWithoutExample(text: string): string[] {
	return [...text.matchAll(PLACEHOLDER)]
		.filter(([, , single, double]) => single === undefined && double === undefined)
		.map(([, name]) => name);
}

/** A text cut at its placeholders: the texts around them (one more than the placeholders), and their names. */
export function splitAtPlaceholders(text: string): { texts: string[]; names: string[] } {
	const texts: string[] = [];
	const names: string[] = [];
	let from = 0;
	for (const match of text.matchAll(PLACEHOLDER)) {
		texts.push(text.slice(from, match.index));
		names.push(match[1]);
		from = (match.index ?? 0) + match[0].length;
	}
	texts.push(text.slice(from));
	return { texts, names };
}

/**
 * A text with each placeholder replaced by its value in `values` (text as is, anything else as
 * JSON); a placeholder without a value stays as written. Pure.
 */
export function fillPlaceholders(text: string, values: IDataObject | undefined): string {
	return text.replace(PLACEHOLDER, (placeholder: string, name: string) => {
		const value = values?.[name];
		if (value === undefined || value === null) return placeholder;
		return typeof value === 'string' ? value : JSON.stringify(value);
	});
}

/** Every placeholder name in a text. */
export function placeholderNames(text: string): string[] {
	return [...text.matchAll(PLACEHOLDER)].map(([, name]) => name);
}

/** A template's components that are objects, in their order. */
export function componentsOf(template: unknown): IDataObject[] {
	const components =
		isPlainObject(template) && Array.isArray(template.components)
			? (template.components as unknown[]).filter(isPlainObject)
			: [];
	return [...components].sort((a, b) => Number(a.index ?? 0) - Number(b.index ?? 0));
}

/** Where a template uses a variable: in the text of a component, or at the end of a URL button. */
export interface VariablePlace {
	component: string;
	/** For a URL button: its URL up to the variable (WhatsApp appends the value there). */
	urlBefore?: string;
	/** For a URL button: whether the variable ends the URL (a dynamic suffix). */
	atEnd?: boolean;
}

/** Every place a template uses the variable `name`. */
export function placesOf(template: unknown, name: string): VariablePlace[] {
	const places: VariablePlace[] = [];
	for (const component of componentsOf(template)) {
		const type = typeof component.component_type === 'string' ? component.component_type : '';
		const text = typeof component.value === 'string' ? component.value : '';
		for (const match of text.matchAll(PLACEHOLDER)) {
			if (match[1] !== name) continue;
			if (type === 'buttons' && component.sub_type === 'url') {
				const at = match.index ?? 0;
				places.push({
					component: 'url button',
					urlBefore: text.slice(0, at),
					atEnd: at + match[0].length === text.length,
				});
			} else places.push({ component: type || 'body' });
		}
	}
	return places;
}

/** The media kind of a template's header (image, video, document), or undefined when it has none. */
export function headerMediaKind(template: unknown): string | undefined {
	const header = componentsOf(template).find(
		(component) =>
			component.component_type === 'header' &&
			['image', 'video', 'document'].includes(String(component.data_type)),
	);
	return header ? String(header.data_type) : undefined;
}

/**
 * The variables of a template that can carry Send and Wait's answer link: those of its text
 * (`variable`), or those that end a URL button (`urlButton`). Pure.
 */
export function linkVariablesOf(template: unknown, placement: string): string[] {
	return templateVariables(template)
		.map((variable) => variable.name)
		.filter((name) =>
			placesOf(template, name).some((place) =>
				placement === 'urlButton'
					? place.component === 'url button' && place.atEnd === true
					: place.component !== 'url button',
			),
		);
}
