import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { linkVariablesOf, placesOf } from '../../helpers/templateVariables';
import { chosenTemplate } from '../template';

/**
 * Send and Wait's Link Variable and Message Variable: the chosen template's own variables to pick
 * from, each with where the template shows it. n8n reloads them when the template changes and marks
 * a chosen name the template does not have.
 */

/** Where a template shows a variable, for its option's name: "body", "end of the URL button". */
function whereShown(template: unknown, name: string): string {
	const places = [
		...new Set(
			placesOf(template, name).map((place) =>
				place.component === 'url button'
					? place.atEnd
						? 'end of the URL button'
						: 'URL button'
					: place.component,
			),
		),
	];
	return places.join(', ');
}

/** The value chosen now, kept as an option while no template is chosen (so nothing is marked). */
function keptWithoutTemplate(context: ILoadOptionsFunctions, parameter: string) {
	const value = context.getCurrentNodeParameter(parameter);
	return typeof value === 'string' && value !== '' ? [{ name: value, value }] : [];
}

/** The variables that can carry the answer link, for the chosen Link Placement. */
export async function getLinkVariables(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const chosen = await chosenTemplate(this);
	if (!chosen) return keptWithoutTemplate(this, 'linkVariable');
	const placement = String(this.getCurrentNodeParameter('linkPlacement') ?? 'variable');
	return linkVariablesOf(chosen.template, placement).map((name) => ({
		name: `${name} (${whereShown(chosen.template, name)})`,
		value: name,
	}));
}

/** The variables of the template's text that can carry the question, or none. */
export async function getMessageVariables(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const none = {
		name: 'None',
		value: '',
		description: 'The question shows on the answer page only',
	};
	const chosen = await chosenTemplate(this);
	if (!chosen) return [none, ...keptWithoutTemplate(this, 'messageVariable')];
	return [
		none,
		...linkVariablesOf(chosen.template, 'variable').map((name) => ({
			name: `${name} (${whereShown(chosen.template, name)})`,
			value: name,
		})),
	];
}

/** The load-options methods the node's fields name. */
export const loadOptions = { getLinkVariables, getMessageVariables };
