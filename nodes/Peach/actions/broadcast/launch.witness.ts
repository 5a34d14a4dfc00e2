import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { isPlainObject } from '../../helpers/json';
import { createdAtOf, nearStart } from '../../helpers/time';
import { peachApiRequestAllItems } from '../../transport/paginate';
import { apiPath } from '../../transport/path';
import type { PeachWitness } from '../operation/node.type';
import type { LaunchPlan } from './launchBase';

/**
 * Broadcast → Launch's witness: before a later try launches again a broadcast the record cannot
 * tell, Peach's list of broadcasts (`GET /broadcasts`, docs/peach-api.md 3.1, its answer not documented)
 * is read once, every page: a broadcast with the same name and template (and audience, where both
 * name one), created since the execution began, is this launch. Where the list cannot tell (it names
 * no broadcast, template or creation time of such a broadcast, or shows several), it cannot decide.
 */

/** A broadcast Peach lists: as it came, and when it was created (undefined: the list does not say). */
interface SeenBroadcast {
	json: IDataObject;
	at?: number;
	/** Dated so near the execution's start that it may be an earlier execution's broadcast. */
	nearStart?: boolean;
}

/** Pages of broadcasts read at most (the list has no filter by date). */
const MAX_PAGES = 100;

const text = (value: unknown) =>
	typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

function templateOf(broadcast: IDataObject): string | undefined {
	const nested = (key: string) =>
		isPlainObject(broadcast[key]) ? text((broadcast[key] as IDataObject).id) : undefined;
	return (
		text(broadcast.whats_app_template_id) ??
		nested('whats_app_template') ??
		text(broadcast.template_id) ??
		nested('template')
	);
}

/** The broadcast a launch sends (its name, template and audience). */
const broadcastOf = (plan: LaunchPlan): IDataObject =>
	plan.recipients === 'audience' ? plan.broadcast : plan.base;

/** Whether a listed broadcast is this launch: true, false, or why the list cannot tell. Pure. */
export function isThisLaunch(plan: LaunchPlan, seen: SeenBroadcast): boolean | string {
	const asked = broadcastOf(plan);
	const name = text(seen.json.name);
	if (name === undefined)
		return "Peach's list of broadcasts does not name them, so it cannot tell whether this one was launched.";
	if (name !== text(asked.name)) return false;
	const template = templateOf(seen.json);
	if (template === undefined)
		return `Peach lists a broadcast "${name}" without its template, so it cannot tell whether it is this one.`;
	if (template !== asked.whats_app_template_id) return false;
	const audience = text(seen.json.audience_id);
	if (audience !== undefined && asked.audience_id !== undefined && audience !== asked.audience_id)
		return false;
	if (seen.at === undefined)
		return `Peach lists a broadcast "${name}" with this template without saying when it was created, so it cannot tell whether it is this launch.`;
	if (seen.nearStart)
		return `Peach lists a broadcast "${name}" with this template created within a minute of when this execution began: it may be an earlier execution's.`;
	return true;
}

export const launchWitness: PeachWitness<LaunchPlan, SeenBroadcast> = {
	sourceOf: () => ({ source: 'broadcasts' }),
	async read(this: IExecuteFunctions, _source: string, since: number) {
		const listed = await peachApiRequestAllItems.call(
			this,
			{ method: 'GET', path: apiPath`/broadcasts` },
			{ itemsKey: ['broadcasts', 'campaigns'], maxPages: MAX_PAGES },
		);
		return listed
			.filter(isPlainObject)
			.map((json) => ({ json, at: createdAtOf(json) }))
			.filter((seen) => seen.at === undefined || seen.at >= since)
			.map((seen) => ({ ...seen, nearStart: seen.at !== undefined && nearStart(seen.at, since) }));
	},
	matches: isThisLaunch,
	shown(_plan, seen) {
		const { id, status } = seen.json;
		return {
			json: seen.json,
			note: `Not launched again: Peach lists broadcast ${String(id ?? '')} "${String(seen.json.name)}"${typeof status === 'string' ? ` (${status})` : ''} with this template, created since the execution began, and n8n's record did not show this launch's outcome.`,
		};
	},
};
