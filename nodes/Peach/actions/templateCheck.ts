import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { templateOf } from '../api/templates';
import { isPlainObject } from '../helpers/json';
import { rowsOf } from '../helpers/payload';
import { placesOf, templateVariables } from '../helpers/templateVariables';

/**
 * What the node checks of a template before the first request that sends it, for every item of
 * every operation that sends one (the template is read once per execution, or kept from an earlier
 * one for a minute: api/templates.ts; every item is checked either way): that WhatsApp would send
 * it (not pending, rejected, draft, paused or disabled), and that no message goes out half-filled:
 * every variable it uses (in its header, body, footer or buttons) needs a value, or the contact sees
 * the placeholder itself (`Hi {{first_name}}`).
 */

/**
 * Template statuses WhatsApp does not send. Peach documents no list of statuses; these are the ones
 * seen (disabled in its docs; draft, rejected, pending and paused in its tools): any other status is
 * left to Peach.
 */
const NOT_SENDABLE = ['pending', 'rejected', 'draft', 'paused', 'disabled'];

/** A value that fills nothing: missing, null, or text of spaces only. */
function isEmptyValue(value: unknown): boolean {
	return (
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
	);
}

/**
 * What the user wrote for the variable `name` in the item's parameters (an expression, as typed), in
 * the chosen variables mode; undefined when there is none to show (JSON mode, a fixed value, no row).
 */
function expressionOf(
	context: IExecuteFunctions,
	itemIndex: number,
	name: string,
): string | undefined {
	const mode = context.getNodeParameter('variablesInput', itemIndex, 'fields') as string;
	let raw: unknown;
	if (mode === 'template') {
		const mapped: unknown = context.getNodeParameter(
			'variablesMapped',
			itemIndex,
			{},
			{
				rawExpressions: true,
			},
		);
		raw = isPlainObject(mapped) && isPlainObject(mapped.value) ? mapped.value[name] : undefined;
	} else if (mode === 'fields') {
		const rows = rowsOf(
			context.getNodeParameter('variables', itemIndex, {}, { rawExpressions: true }),
		);
		raw = rows.find((row) => typeof row.key === 'string' && row.key.trim() === name)?.value;
	}
	return typeof raw === 'string' && raw.startsWith('=') ? raw.slice(1).trim() : undefined;
}

/** Where the template shows a variable, for the message: "its body", "its header and a URL button". */
function whereUsed(template: IDataObject, name: string): string {
	const places = [...new Set(placesOf(template, name).map((place) => place.component))];
	const named = places.map((place) => (place === 'url button' ? 'a URL button' : `its ${place}`));
	if (named.length === 0) return 'it';
	return named.length === 1
		? named[0]
		: `${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}`;
}

/**
 * Refuses the item when its template is not sendable, or when a variable of the template has no
 * value in `values` (what will be sent as `liquid_values`), naming the item, the variable, the
 * expression that gave nothing and where the template shows it. `filledLater` are variables the node fills itself (header_media from a file).
 * `field` is where the values are given (Variables, Other Template Variables, Global Variables…).
 */
export async function checkTemplateBeforeSend(
	context: IExecuteFunctions,
	itemIndex: number,
	input: {
		templateId: string;
		values: IDataObject | undefined;
		field: string;
		filledLater?: string[];
		/** For a value given per contact (a broadcast's Contact Variables): that field too. */
		alsoIn?: string;
	},
): Promise<void> {
	const template = await templateOf(context, input.templateId, itemIndex);
	const templateName = typeof template.name === 'string' ? `"${template.name}"` : input.templateId;
	const status = typeof template.status === 'string' ? template.status.toLowerCase() : '';
	if (NOT_SENDABLE.includes(status)) {
		throw new NodeOperationError(
			context.getNode(),
			`Template ${templateName} (${input.templateId}) is ${status}: WhatsApp sends approved templates only`,
			{
				description:
					status === 'pending'
						? 'Meta is still reviewing it (usually minutes to a day). Pick an approved template, or run again once WhatsApp Template → Get shows it approved.'
						: 'Pick an approved template (the From List choice shows each one with its status), or fix this one in Peach and submit it again.',
				itemIndex,
			},
		);
	}
	const missing = templateVariables(template)
		.map((variable) => variable.name)
		.filter((name) => !input.filledLater?.includes(name))
		.filter((name) => isEmptyValue(input.values?.[name]));
	if (missing.length === 0) return;
	const [first] = missing;
	const expression = expressionOf(context, itemIndex, first);
	const value = input.values?.[first];
	const gave = typeof value !== 'string' ? 'no value' : value === '' ? 'empty text' : 'only spaces';
	const others = missing.slice(1);
	throw new NodeOperationError(
		context.getNode(),
		`Template variable ${first} is empty in item ${itemIndex + 1}${
			others.length ? ` (and ${others.join(', ')})` : ''
		}`,
		{
			description: [
				expression
					? `${input.field} → ${first} is ${expression}, which gave ${gave} for this item.`
					: `${input.field}${input.alsoIn ? ` and ${input.alsoIn}` : ''} give no value for ${first}.`,
				`Template ${templateName} shows {{${first}}} in ${whereUsed(template, first)}: sent without a value, the contact would see the placeholder.`,
				`Give every item a value (e.g. {{ $json.name || 'there' }}), or leave out the items without one (e.g. with a Filter node before this one).`,
			].join(' '),
			itemIndex,
		},
	);
}
