/**
 * The contact's phone, in the sandbox: what a queued template message looks like once WhatsApp shows
 * it (the template's text with its variables filled, the URL buttons with their links), and the
 * contact acting on it: WhatsApp fetching a link preview (a GET, nothing else), a tap on a link (the
 * page opens with a GET; a button of its form is pressed: a POST), a written answer.
 *
 * An independent reading: the page is read as a browser reads HTML (its form, buttons and text box),
 * not with the node's code.
 */
import type { JsonObject, SandboxState as State, ShownMessage } from './state/index.mts';

const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w.]*)\s*(?:\|[^}]*)?\}\}/g;
const URL_IN_TEXT = /https?:\/\/[^\s<>"]+/g;

/** A template's text with the values filled in (a variable without a value shows as it is written). */
function fill(text: string, values: JsonObject): string {
	return text.replace(PLACEHOLDER, (whole, name: string) => {
		const value = values[name];
		return typeof value === 'string' || typeof value === 'number' ? String(value) : whole;
	});
}

/** What WhatsApp shows for a template sent with `liquid_values`. */
export function render(
	id: string,
	phone: string,
	template: JsonObject | undefined,
	liquidValues: JsonObject | null,
	at: string,
): ShownMessage {
	const values = liquidValues ?? {};
	const components = Array.isArray(template?.components)
		? (template.components as JsonObject[])
		: [];
	const textParts: string[] = [];
	const buttons: ShownMessage['buttons'] = [];
	let attachment: ShownMessage['attachment'] = null;
	for (const component of components) {
		const value = typeof component.value === 'string' ? component.value : '';
		const kind = String(component.data_type ?? '');
		if (component.component_type === 'header' && ['image', 'video', 'document'].includes(kind)) {
			// header_media is a URL, or {link, filename} (a filename only for a document): Peach's docs.
			const media = values.header_media;
			const link =
				typeof media === 'string'
					? media
					: media && typeof media === 'object' && !Array.isArray(media)
						? String((media as JsonObject).link ?? '')
						: '';
			const filename =
				media && typeof media === 'object' && !Array.isArray(media)
					? (media as JsonObject).filename
					: undefined;
			const name =
				typeof filename === 'string' && filename
					? filename
					: link
						? (link.split(/[?#]/)[0].split('/').filter(Boolean).pop() ?? null)
						: null;
			attachment = link ? { kind, name, link } : null;
			continue;
		}
		if (component.component_type === 'buttons' || component.component_type === 'button') {
			buttons.push({
				text: String(component.name ?? component.value ?? ''),
				url: component.sub_type === 'url' ? fill(value, values) : null,
			});
		} else if (component.data_type === 'text' || component.data_type === undefined) {
			textParts.push(fill(value, values));
		}
	}
	const text = textParts.join('\n');
	const links = [
		...(text.match(URL_IN_TEXT) ?? []),
		...buttons.flatMap((button) => (button.url ? [button.url] : [])),
	];
	return {
		id,
		phone_number: phone,
		whats_app_template_id: String(template?.id ?? ''),
		text,
		buttons,
		links,
		attachment,
		at,
	};
}

/** WhatsApp's link preview fetcher: it asks for the page to show a preview, and does nothing else. */
export const PREVIEW_USER_AGENT = 'WhatsApp/2.24.1.0 A';
const PHONE_USER_AGENT =
	'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';

function latestFor(state: State, phone: string): ShownMessage {
	const message = [...state.phone].reverse().find((entry) => entry.phone_number === phone);
	if (!message) throw new Error(`no message was shown to ${phone}`);
	if (message.links.length === 0) throw new Error(`the last message to ${phone} has no link`);
	return message;
}

/** The form of a page: its buttons (name, value, label) and its text box, read as a browser does. */
export function formOf(html: string) {
	const form = /<form\b[^>]*method=["']?post["']?[^>]*>([\s\S]*?)<\/form>/i.exec(html);
	if (!form) return undefined;
	const attribute = (tag: string, name: string) =>
		new RegExp(`\\b${name}=["']([^"']*)["']`, 'i').exec(tag)?.[1];
	const buttons = [...form[1].matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/gi)].map(
		([, tag, label]) => ({
			name: attribute(tag, 'name'),
			value: attribute(tag, 'value'),
			label: label.replace(/<[^>]+>/g, '').trim(),
		}),
	);
	const textarea = /<textarea\b([^>]*)>/i.exec(form[1]);
	const tag = /^<form\b[^>]*>/i.exec(form[0])?.[0] ?? '';
	return {
		buttons,
		/** The form's enctype: a browser posts multipart/form-data when the form says so. */
		multipart: attribute(tag, 'enctype')?.toLowerCase() === 'multipart/form-data',
		textField: textarea ? attribute(textarea[1], 'name') : undefined,
		inputs: labelledInputs(form[1]),
	};
}

const text = (html: string) =>
	html
		.replace(/<[^>]+>/g, '')
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&quot;/g, '"')
		.replace(/&#39;/g, "'")
		.replace(/&amp;/g, '&')
		.replace(/\s*\*$/, '')
		.trim();

/**
 * The form's fields by their label, as a person sees them: a <label for> names the control with that
 * id; a <fieldset>'s <legend> names its radio buttons or checkboxes. Each gives the name it posts.
 */
function labelledInputs(form: string): Record<string, string> {
	const names: Record<string, string> = {};
	const byId: Record<string, string> = {};
	for (const [, tag] of form.matchAll(/<(?:input|select|textarea)\b([^>]*)>/gi)) {
		const id = /\bid="([^"]*)"/i.exec(tag)?.[1];
		const name = /\bname="([^"]*)"/i.exec(tag)?.[1];
		if (id && name) byId[id] = name;
	}
	for (const [, id, label] of form.matchAll(
		/<label\b[^>]*\bfor="([^"]*)"[^>]*>([\s\S]*?)<\/label>/gi,
	)) {
		if (byId[id]) names[text(label)] = byId[id];
	}
	for (const [, legend, body] of form.matchAll(
		/<fieldset>\s*<legend>([\s\S]*?)<\/legend>([\s\S]*?)<\/fieldset>/gi,
	)) {
		const name = /\bname="([^"]*)"/i.exec(body)?.[1];
		if (name) names[text(legend)] = name;
	}
	return names;
}

/** WhatsApp fetching a preview of every link of the contact's last message: GETs only. */
export async function previewLinks(state: State, phone: string) {
	const message = latestFor(state, phone);
	return await Promise.all(
		message.links.map(async (url) => {
			const response = await fetch(url, { headers: { 'User-Agent': PREVIEW_USER_AGENT } });
			return { url, status: response.status, bytes: (await response.arrayBuffer()).byteLength };
		}),
	);
}

/**
 * The contact opens the link of the last message (the first one, or the URL button named `button`
 * opens its own) and answers on the page: presses the button labelled `choice` (by default the
 * first), or writes `text` and sends it.
 */
export async function answer(
	state: State,
	phone: string,
	input: {
		choice?: string;
		text?: string;
		link?: string;
		/** A form: values by the fields' labels (a list for checkboxes), posted as the page names them. */
		fields?: Record<string, string | string[]>;
	},
) {
	const message = latestFor(state, phone);
	const url = input.link ?? message.links[0];
	const page = await fetch(url, { headers: { 'User-Agent': PHONE_USER_AGENT } });
	const html = await page.text();
	const form = formOf(html);
	if (!form) return { url, pageStatus: page.status, answered: false, html };
	const fields = new URLSearchParams();
	if (input.fields !== undefined) {
		for (const [label, value] of Object.entries(input.fields)) {
			const name = form.inputs[label];
			if (!name)
				throw new Error(
					`the page has no field "${label}" (it has ${Object.keys(form.inputs).join(', ')})`,
				);
			for (const entry of Array.isArray(value) ? value : [value]) fields.append(name, entry);
		}
	} else if (input.text !== undefined) {
		if (!form.textField) throw new Error('the page has no text box');
		fields.set(form.textField, input.text);
	} else {
		const button =
			input.choice === undefined
				? form.buttons[0]
				: form.buttons.find((entry) => entry.label === input.choice);
		if (!button) throw new Error(`the page has no button "${input.choice}"`);
		if (button.name) fields.set(button.name, button.value ?? '');
	}
	// A form without `action` posts to the page's own URL, encoded as its enctype says.
	let body: FormData | string = fields.toString();
	if (form.multipart) {
		body = new FormData();
		for (const [name, value] of fields.entries()) body.append(name, value);
	}
	const sent = await fetch(url, {
		method: 'POST',
		headers: {
			'User-Agent': PHONE_USER_AGENT,
			// A multipart body's type (with its boundary) comes from fetch itself.
			...(form.multipart ? {} : { 'Content-Type': 'application/x-www-form-urlencoded' }),
		},
		body,
	});
	return {
		url,
		pageStatus: page.status,
		answered: true,
		status: sent.status,
		html: await sent.text(),
	};
}
