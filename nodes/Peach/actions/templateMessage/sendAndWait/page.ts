/**
 * The pages a Send and Wait link opens: self-contained HTML (no scripts, no external assets). A GET
 * only shows the question with its button(s); the answer is the POST of that page's form, to the
 * same signed URL, so a link preview (a GET) never answers.
 */

import { escapeHtml, safeHtml } from '../../../helpers/html';
import type { FormField, Given } from './form';
import { inputName } from './form';

/** What the page asks. */
export interface AnswerPage {
	message: string;
	/** Who is asked (the contact's name, or the number the question went to). */
	who?: string;
	responseType: 'approval' | 'freeText' | 'customForm';
	/** Custom form: its fields, and what the person sent (shown again with a problem). */
	fields?: FormField[];
	given?: Given;
	/** Approval: the buttons, approve first. */
	approveLabel?: string;
	/** Approval with two choices: the decline button. */
	declineLabel?: string;
	/** Free text: the form's title and its button. */
	title?: string;
	buttonLabel?: string;
	/** Shown above the form when a POST could not be used (e.g. an empty answer). */
	problem?: string;
}

const STYLE = `
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f6f4;color:#1c2320}
main{max-width:32rem;margin:0 auto;padding:2rem 1.25rem}
h1{font-size:1.25rem;margin:0 0 1rem}
.message{white-space:pre-wrap;background:#fff;border-radius:.75rem;padding:1rem;line-height:1.45;box-shadow:0 1px 2px rgba(0,0,0,.08)}
.problem{color:#a61b1b;font-weight:600}
form{margin-top:1.25rem;display:flex;flex-direction:column;gap:.75rem}
button{font-size:1.05rem;padding:.9rem 1rem;border-radius:.6rem;border:0;cursor:pointer}
.approve{background:#1f8f4e;color:#fff}
.decline{background:#fff;color:#1c2320;border:1px solid #c9d1cc}
textarea{font:inherit;font-size:1rem;min-height:7rem;padding:.75rem;border-radius:.6rem;border:1px solid #c9d1cc}
input,select{font:inherit;font-size:1rem;padding:.7rem .75rem;border-radius:.6rem;border:1px solid #c9d1cc;background:#fff}
label{font-weight:600}
fieldset{border:0;padding:0;margin:0;display:flex;flex-direction:column;gap:.4rem}
legend{font-weight:600;padding:0;margin-bottom:.3rem}
.choice{font-weight:400;display:flex;gap:.5rem;align-items:center}
.field{display:flex;flex-direction:column;gap:.35rem}
.html{line-height:1.45}
.answers{margin:0;padding-left:1.1rem}
.note{color:#5b6661;font-size:.9rem;margin-top:1.25rem}
.who{color:#5b6661;margin:-.5rem 0 1rem}`;

function page(title: string, content: string): string {
	return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta property="og:title" content="${escapeHtml(title)}">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body><main>
${content}
</main></body>
</html>
`;
}

/** The question: the message and one form whose buttons (or text box) answer it with a POST. */
export function questionPage(ask: AnswerPage): string {
	const title =
		ask.responseType === 'approval'
			? 'Your decision is requested'
			: ask.title || 'Your answer is requested';
	const problem = ask.problem ? `<p class="problem">${escapeHtml(ask.problem)}</p>\n` : '';
	const who = ask.who ? `<p class="who">Asked of ${escapeHtml(ask.who)}</p>\n` : '';
	const message = ask.message ? `<p class="message">${escapeHtml(ask.message)}</p>\n` : '';
	const controls =
		ask.responseType === 'customForm'
			? `${formControls(ask.fields ?? [], ask.given)}
<button class="approve" type="submit">${escapeHtml(ask.buttonLabel || 'Send')}</button>`
			: ask.responseType === 'freeText'
				? `<label for="text">Your answer</label>
<textarea id="text" name="text" required></textarea>
<button class="approve" type="submit">${escapeHtml(ask.buttonLabel || 'Send')}</button>`
				: [
						`<button class="approve" type="submit" name="approved" value="true">${escapeHtml(ask.approveLabel || 'Approve')}</button>`,
						ask.declineLabel === undefined
							? ''
							: `<button class="decline" type="submit" name="approved" value="false">${escapeHtml(ask.declineLabel)}</button>`,
					]
						.filter(Boolean)
						.join('\n');
	return page(
		title,
		`<h1>${escapeHtml(title)}</h1>
${who}${problem}${message}<form method="post"${ask.responseType === 'customForm' ? ' enctype="multipart/form-data"' : ''}>
${controls}
</form>
<p class="note">Nothing is recorded until you ${ask.responseType === 'approval' ? 'tap a button' : 'send your answer'}.</p>`,
	);
}

/** What was recorded, said back to the person who answered. */
export type Recorded =
	| { kind: 'approval'; approved: boolean; button: string }
	| { kind: 'text'; text: string }
	| { kind: 'form'; answers: Array<{ label: string; value: string }> };

/** After the answer: what was recorded; the page can be closed. */
export function answeredPage(recorded: Recorded): string {
	const what =
		recorded.kind === 'form'
			? `Your answers were recorded:</p>\n<ul class="answers">${recorded.answers
					.map(({ label, value }) => `<li>${escapeHtml(label)}: ${escapeHtml(value)}</li>`)
					.join('')}</ul>\n<p class="note">`
			: recorded.kind === 'text'
				? `Your answer was recorded: <span class="answer">${escapeHtml(recorded.text)}</span>`
				: `Recorded: <strong>${recorded.approved ? 'approved' : 'declined'}</strong> (${escapeHtml(recorded.button)})`;
	return page(
		'Thank you',
		`<h1>Thank you</h1>
<p class="message">${what}</p>
<p class="note">You can close this page.</p>`,
	);
}

/** The question cannot be shown (its form no longer reads); nothing is recorded. */
export function unavailablePage(reason: string): string {
	return page(
		'This question cannot be shown',
		`<h1>This question cannot be shown</h1>
<p class="message">${escapeHtml(reason)}</p>
<p class="note">Nothing was recorded. Tell the person who sent it.</p>`,
	);
}

/**
 * A link whose question is not the one asked now: answered already (it can be answered once), or
 * replaced by a later question of the same workflow. Nothing is recorded.
 */
export function stalePage(): string {
	return page(
		'This question is closed',
		`<h1>This question is closed</h1>
<p class="message">It was answered already, or a newer question replaced it. Nothing was recorded.</p>
<p class="note">If you were asked again, use the link in the newest message.</p>`,
	);
}

const INPUT_TYPES: Partial<Record<FormField['type'], string>> = {
	text: 'text',
	number: 'text',
	email: 'email',
	password: 'password',
	date: 'date',
};

/**
 * The custom form's controls: each field with its label, as n8n's form names them (field-<index>),
 * filled with what the person sent (a field not in it was left empty: a browser posts nothing for
 * cleared checkboxes), or the defaults when nothing was sent. A hidden field is not on the page (its
 * value is set by the node); Custom HTML shows its safe part.
 */
function formControls(fields: FormField[], given: Given | undefined): string {
	return fields
		.map((field, index) => {
			const name = inputName(index);
			const id = `f${index}`;
			const values = given ? (given[name] ?? []) : field.defaults;
			const required = field.required ? ' required' : '';
			const label = `${escapeHtml(field.label)}${field.required ? ' *' : ''}`;
			if (field.type === 'hiddenField') return '';
			if (field.type === 'html') return `<div class="html">${safeHtml(field.html)}</div>`;
			if (field.type === 'radio' || field.type === 'checkbox') {
				const choices = field.options
					.map(
						(option, at) =>
							`<label class="choice"><input type="${field.type}" id="${id}-${at}" name="${name}" value="${escapeHtml(option)}"${values.includes(option) ? ' checked' : ''}${field.type === 'radio' ? required : ''}> ${escapeHtml(option)}</label>`,
					)
					.join('\n');
				return `<fieldset>\n<legend>${label}</legend>\n${choices}\n</fieldset>`;
			}
			if (field.type === 'dropdown') {
				const choices = field.options
					.map(
						(option) =>
							`<option value="${escapeHtml(option)}"${values.includes(option) ? ' selected' : ''}>${escapeHtml(option)}</option>`,
					)
					.join('');
				const empty = field.multiple ? '' : '<option value="">Choose…</option>';
				return `<div class="field"><label for="${id}">${label}</label>\n<select id="${id}" name="${name}"${field.multiple ? ' multiple' : ''}${required}>${empty}${choices}</select></div>`;
			}
			const placeholder = field.placeholder
				? ` placeholder="${escapeHtml(field.placeholder)}"`
				: '';
			const value = values[0] ?? '';
			if (field.type === 'textarea') {
				return `<div class="field"><label for="${id}">${label}</label>\n<textarea id="${id}" name="${name}"${placeholder}${required}>${escapeHtml(value)}</textarea></div>`;
			}
			const numeric = field.type === 'number' ? ' inputmode="decimal"' : '';
			const shown = field.type === 'password' ? '' : ` value="${escapeHtml(value)}"`;
			return `<div class="field"><label for="${id}">${label}</label>\n<input id="${id}" name="${name}" type="${INPUT_TYPES[field.type] ?? 'text'}"${numeric}${placeholder}${shown}${required}></div>`;
		})
		.filter(Boolean)
		.join('\n');
}
