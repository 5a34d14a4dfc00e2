/**
 * The pages a Send and Wait link opens: self-contained HTML (no scripts, no external assets). A GET
 * only shows the question with its button(s); the answer is the POST of that page's form, to the
 * same signed URL, so a link preview (a GET) never answers.
 */

/** What the page asks. */
export interface AnswerPage {
	message: string;
	/** Who is asked (the contact's name, or the number the question went to). */
	who?: string;
	responseType: 'approval' | 'freeText';
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

const escapeHtml = (text: string) =>
	text
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, '&#39;');

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
		ask.responseType === 'freeText'
			? ask.title || 'Your answer is requested'
			: 'Your decision is requested';
	const problem = ask.problem ? `<p class="problem">${escapeHtml(ask.problem)}</p>\n` : '';
	const who = ask.who ? `<p class="who">Asked of ${escapeHtml(ask.who)}</p>\n` : '';
	const message = ask.message ? `<p class="message">${escapeHtml(ask.message)}</p>\n` : '';
	const controls =
		ask.responseType === 'freeText'
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
${who}${problem}${message}<form method="post">
${controls}
</form>
<p class="note">Nothing is recorded until you ${ask.responseType === 'freeText' ? 'send your answer' : 'tap a button'}.</p>`,
	);
}

/** What was recorded, said back to the person who answered. */
export type Recorded =
	| { kind: 'approval'; approved: boolean; button: string }
	| { kind: 'text'; text: string };

/** After the answer: what was recorded; the page can be closed. */
export function answeredPage(recorded: Recorded): string {
	const what =
		recorded.kind === 'text'
			? `Your answer was recorded: <span class="answer">${escapeHtml(recorded.text)}</span>`
			: `Recorded: <strong>${recorded.approved ? 'approved' : 'declined'}</strong> (${escapeHtml(recorded.button)})`;
	return page(
		'Thank you',
		`<h1>Thank you</h1>
<p class="message">${what}</p>
<p class="note">You can close this page.</p>`,
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
