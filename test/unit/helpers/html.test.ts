import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { escapeHtml, safeHtml } from '../../../nodes/Peach/helpers/html';
import { readAnswer } from '../../../nodes/Peach/actions/templateMessage/sendAndWait/form.answers';
import { customFormOf } from '../../../nodes/Peach/actions/templateMessage/sendAndWait/form.definition';

describe("safeHtml: a workflow's Custom HTML on the answer page", () => {
	it('keeps the simple tags as written, without attributes', () => {
		expect(
			safeHtml(
				'<h3>Order A-7</h3><p>Paid <b>₹1,200</b><br/>on <em>2 Dec</em></p><ul><li>one</li></ul>',
			),
		).toBe('<h3>Order A-7</h3><p>Paid <b>₹1,200</b><br>on <em>2 Dec</em></p><ul><li>one</li></ul>');
	});

	it('keeps a link to an https:// address (opened apart, no referrer); any other link is text', () => {
		expect(safeHtml('<a href="https://shop.example/o/7?x=1&y=2">order</a>')).toBe(
			'<a href="https://shop.example/o/7?x=1&amp;y=2" rel="noopener noreferrer" target="_blank">order</a>',
		);
		for (const link of [
			'<a href="javascript:alert(1)">x</a>',
			'<a href="http://plain.example">x</a>',
			'<a href="https://x.example" onclick="alert(1)">x</a>',
			"<a href='https://x.example'>x</a>",
		]) {
			expect(safeHtml(link)).not.toMatch(/<a /);
		}
	});

	it('shows every other tag, attribute and script as text', () => {
		expect(
			safeHtml(
				'<script>alert(1)</script><img src=x onerror=alert(1)><p class="x">a</p><form action="//evil">',
			),
		).toBe(
			'&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;&lt;p class=&quot;x&quot;&gt;a</p>&lt;form action=&quot;//evil&quot;&gt;',
		);
	});

	it("property: whatever the HTML, the result has no tag but the kept ones, and no attribute but a link's", () => {
		const pieces = fc.constantFrom(
			'<',
			'>',
			'"',
			"'",
			'/',
			'=',
			' ',
			'a',
			'p',
			'b',
			'script',
			'img',
			'href',
			'https://x.example',
			'on',
			'click',
			'style',
			'iframe',
			'form',
			'input',
			'&',
			';',
			'#',
			'javascript:',
			'\n',
		);
		fc.assert(
			fc.property(fc.array(pieces, { maxLength: 40 }), (parts) => {
				const out = safeHtml(parts.join(''));
				for (const [, tag, attributes] of out.matchAll(/<\/?([a-z0-9]+)([^>]*)>/gi)) {
					expect([
						'p',
						'br',
						'b',
						'strong',
						'i',
						'em',
						'u',
						'ul',
						'ol',
						'li',
						'h1',
						'h2',
						'h3',
						'h4',
						'h5',
						'h6',
						'hr',
						'blockquote',
						'code',
						'pre',
						'small',
						'a',
					]).toContain(tag);
					if (tag !== 'a') expect(attributes).toBe('');
					else if (attributes)
						expect(attributes).toMatch(
							/^ href="https:\/\/[^"<> ]*" rel="noopener noreferrer" target="_blank"$/,
						);
				}
			}),
			{ numRuns: 2000 },
		);
	});

	it('escapeHtml: text is never markup', () => {
		expect(escapeHtml(`<a href="x">'&'</a>`)).toBe(
			'&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;',
		);
	});
});

describe('readAnswer (property): whatever is posted, an answer is either refused or fits the form', () => {
	const fields = customFormOf(
		'fields',
		{
			values: [
				{ fieldLabel: 'Amount', fieldType: 'number', requiredField: true },
				{
					fieldLabel: 'Reason',
					fieldType: 'dropdown',
					fieldOptions: { values: [{ option: 'A' }, { option: 'B' }] },
				},
				{ fieldLabel: 'When', fieldType: 'date' },
				{
					fieldLabel: 'Tags',
					fieldType: 'checkbox',
					fieldOptions: { values: [{ option: 'x' }, { option: 'y' }] },
				},
			],
		},
		undefined,
	);
	const value = fc.oneof(
		fc.string({ maxLength: 12 }),
		fc.constantFrom('12', '1.5', 'A', 'B', 'x', 'y', '2026-12-01', ''),
	);
	it('numbers are numbers, choices are options, dates are dates, no unknown key passes', () => {
		fc.assert(
			fc.property(
				fc.dictionary(
					fc.constantFrom(
						'field-0',
						'field-1',
						'field-2',
						'field-3',
						'field-4',
						'approved',
						'__proto__',
					),
					fc.oneof(value, fc.array(value, { maxLength: 3 })),
				),
				(body) => {
					const answer = readAnswer(fields, body);
					if (answer.problem !== undefined) return;
					const { data } = answer;
					expect(Object.keys(data).sort()).toEqual(['Amount', 'Reason', 'Tags', 'When']);
					expect(Number.isFinite(data.Amount)).toBe(true);
					expect([null, 'A', 'B']).toContain(data.Reason);
					expect(data.When === null || /^\d{4}-\d{2}-\d{2}$/.test(String(data.When))).toBe(true);
					expect((data.Tags as string[]).every((tag) => tag === 'x' || tag === 'y')).toBe(true);
				},
			),
			{ numRuns: 3000 },
		);
	});
});
