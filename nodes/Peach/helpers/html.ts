/** HTML for the pages the node serves (Send and Wait's answer page). Pure. */

/** Text as HTML text or attribute value: never markup. */
export const escapeHtml = (text: string) =>
	text
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, '&#39;');

const KEPT_TAGS =
	/&lt;(\/?)(p|br|b|strong|i|em|u|ul|ol|li|h[1-6]|hr|blockquote|code|pre|small)\s*\/?&gt;/gi;
const LINK = /&lt;a\s+href=&quot;(https:\/\/[^\s]*?)&quot;\s*&gt;/gi;

/**
 * A workflow's HTML as the page shows it: everything escaped, then a small set of tags given back
 * exactly as written, without attributes (headings, paragraphs, line breaks, lists, bold, italic,
 * underline, code, quotes, rules) and links to https:// addresses. Any other tag, attribute or
 * script shows as text; nothing in it can run (the page's policy allows no script either).
 */
export function safeHtml(html: string): string {
	return escapeHtml(html)
		.replace(KEPT_TAGS, (_, close: string, tag: string) => `<${close}${tag.toLowerCase()}>`)
		.replace(LINK, (whole: string, url: string) =>
			/&(lt|gt|quot|#39);/.test(url)
				? whole
				: `<a href="${url}" rel="noopener noreferrer" target="_blank">`,
		)
		.replace(/&lt;\/a\s*&gt;/gi, '</a>');
}
