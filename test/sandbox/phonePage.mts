/**
 * The sandbox's phone as a page a person reads (`GET /__sandbox/phone` from a browser): the contacts
 * that received messages, newest first, and each one's messages as chat bubbles (the media header,
 * the text as WhatsApp shows it with its links clickable, the URL buttons), newest first. Scripts get
 * the same messages as JSON (any request that does not ask for HTML, or `?format=json`).
 */
import type { ShownMessage } from './state/index.mts';

const URL_IN_TEXT = /https?:\/\/[^\s<>"]+/g;

function escape(text: string): string {
	return text
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, '&#39;');
}

/** A link the page may make clickable: http(s) only. */
function link(url: string, label = url): string {
	return /^https?:\/\//i.test(url)
		? `<a href="${escape(url)}" target="_blank" rel="noopener noreferrer">${escape(label)}</a>`
		: escape(label);
}

/** The text as shown, escaped, its links clickable, its lines kept. */
function textHtml(text: string): string {
	let html = '';
	let from = 0;
	for (const match of text.matchAll(URL_IN_TEXT)) {
		html += escape(text.slice(from, match.index)) + link(match[0]);
		from = (match.index ?? 0) + match[0].length;
	}
	return (html + escape(text.slice(from))).replace(/\n/g, '<br>');
}

/** Digits only: `+91 99000 00001`, `919900000001` and `+919900000001` are one number. */
export function digitsOf(phone: string): string {
	return phone.replace(/\D/g, '');
}

/**
 * The phone number a query names. A `+` typed in an address bar reaches the server as a space
 * (`?phone=+9199…` is read as " 9199…"), so the number is compared by its digits.
 */
export function phoneQuery(value: string | null): string {
	return digitsOf(value ?? '');
}

function bubble(message: ShownMessage): string {
	const parts: string[] = [];
	if (message.attachment) {
		const { kind, name, link: url } = message.attachment;
		parts.push(`<div class="attachment">${escape(kind)}: ${link(url, name ?? url)}</div>`);
	}
	parts.push(`<div class="text">${textHtml(message.text)}</div>`);
	for (const button of message.buttons) {
		parts.push(
			`<div class="button">${button.url ? link(button.url, button.text || button.url) : escape(button.text)}</div>`,
		);
	}
	parts.push(
		`<div class="meta">${escape(message.whats_app_template_id)} · <time>${escape(message.at)}</time></div>`,
	);
	return `<li class="bubble">${parts.join('')}</li>`;
}

const STYLE = `
body{font-family:system-ui,sans-serif;margin:0;background:#efeae2;color:#111}
header{background:#075e54;color:#fff;padding:12px 16px}
header a{color:#fff}
main{display:flex;flex-wrap:wrap;gap:16px;padding:16px}
nav{background:#fff;border-radius:8px;padding:8px 12px;min-width:220px;align-self:flex-start}
nav ul{list-style:none;margin:0;padding:0}
nav li{padding:6px 0;border-bottom:1px solid #eee}
section{flex:1;min-width:280px;max-width:560px}
section h2{font-size:1rem;margin:0 0 8px}
ol{list-style:none;margin:0 0 24px;padding:0}
.bubble{background:#fff;border-radius:8px;padding:8px 10px;margin:0 0 8px;box-shadow:0 1px 1px #0002;overflow-wrap:anywhere}
.attachment{background:#f0f0f0;border-radius:6px;padding:6px;margin-bottom:6px}
.button{border-top:1px solid #eee;margin-top:6px;padding-top:6px;text-align:center}
.meta{color:#667;font-size:.75rem;text-align:right;margin-top:4px}
.empty{background:#fff;border-radius:8px;padding:12px}
`;

/**
 * The page: every contact that received something (or the one `?phone=` names), newest first, and
 * its messages, newest first.
 */
export function phonePage(messages: ShownMessage[], selected: string): string {
	const byContact = new Map<string, ShownMessage[]>();
	for (const message of [...messages].reverse()) {
		const list = byContact.get(message.phone_number) ?? [];
		list.push(message);
		byContact.set(message.phone_number, list);
	}
	const contacts = [...byContact.entries()].sort(([, a], [, b]) =>
		a[0].at < b[0].at ? 1 : a[0].at > b[0].at ? -1 : 0,
	);
	const shown = selected ? contacts.filter(([phone]) => digitsOf(phone) === selected) : contacts;
	const list = contacts
		.map(
			([phone, received]) =>
				`<li><a href="?phone=${encodeURIComponent(phone)}">${escape(phone)}</a> · ${received.length} message${received.length === 1 ? '' : 's'}</li>`,
		)
		.join('');
	const sections = shown
		.map(
			([phone, received]) =>
				`<section><h2>${escape(phone)}</h2><ol>${received.map(bubble).join('')}</ol></section>`,
		)
		.join('');
	const empty = selected
		? `<p class="empty">No message to +${escape(selected)} yet.</p>`
		: '<p class="empty">No message yet: send one from n8n (Peach → Template Message → Send).</p>';
	return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Sandbox phone</title><style>${STYLE}</style></head>
<body><header><strong>Peach sandbox · phone</strong> · what each contact received, newest first · <a href="?">all contacts</a> · <a href="">refresh</a></header>
<main><nav><ul>${list || '<li>No contacts yet</li>'}</ul></nav>${sections || empty}</main></body></html>`;
}
