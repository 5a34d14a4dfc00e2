import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { templateMessagesSince } from '../../../api/templateMessages';
import { templateOf } from '../../../api/templates';
import { isPlainObject } from '../../../helpers/json';

/**
 * Peach as the witness of what was sent: before a later try (Retry On Fail or a Retry) sends anything
 * again, it reads what Peach itself lists as queued since the execution began (`GET
 * /template_messages`, docs/peach-api.md 2.3) and counts, per contact and template, the messages it shows. Peach's documentation shows each listed
 * message's `id` and `status` only: where the list also names the contact and the template (under
 * any of the names below), it can tell; where it does not, it cannot, and the record decides alone.
 */

/** One message Peach lists. */
interface Listed {
	id: string;
	status: string | null;
	/** The contact's phone number, digits only. */
	recipient?: string;
	templateId?: string;
	templateName?: string;
}

/** What Peach shows of a delivery it queued: its own ID and status. */
export interface PeachShows {
	id: string;
	status: string | null;
}

/** A delivery, as Peach's list can show it: to whom, and which template. */
export interface Witnessed {
	recipient: string;
	templateId: string;
}

const text = (value: unknown) =>
	typeof value === 'string' && value !== ''
		? value
		: typeof value === 'number'
			? String(value)
			: undefined;

function firstText(record: IDataObject, paths: string[][]): string | undefined {
	for (const path of paths) {
		let value: unknown = record;
		for (const key of path) value = isPlainObject(value) ? value[key] : undefined;
		const found = text(value);
		if (found !== undefined) return found;
	}
	return undefined;
}

const digits = (phone: string) => phone.replace(/\D/g, '');

/** A listed message, read whichever of the names seen in Peach's material its list uses. */
function listedOf(record: IDataObject): Listed | undefined {
	const id = text(record.id);
	if (id === undefined) return undefined;
	const recipient = firstText(record, [
		['phone_number'],
		['contact', 'phone_number'],
		['contact_phone_number'],
		['recipient', 'phone_number'],
		['recipient'],
		['to'],
	]);
	return {
		id,
		status: text(record.status) ?? null,
		recipient: recipient === undefined ? undefined : digits(recipient),
		templateId: firstText(record, [
			['whats_app_template_id'],
			['whats_app_template', 'id'],
			['template_id'],
			['template', 'id'],
		]),
		templateName: firstText(record, [
			['template_name'],
			['whats_app_template', 'template_name'],
			['whats_app_template', 'name'],
			['template', 'name'],
		]),
	};
}

/** When a listed message was made, where its list says (else it counts: updated since is all Peach filters by). */
function createdAt(record: IDataObject): number | undefined {
	const value = Date.parse(String(record.created_at ?? record.sent_at ?? ''));
	return Number.isFinite(value) ? value : undefined;
}

export class Witness {
	private constructor(
		private readonly context: IExecuteFunctions,
		private readonly listed: Listed[],
		/** Whether every message Peach listed names its contact and template. */
		readonly canTell: boolean,
		/** Listed messages a delivery of this execution already took. */
		private readonly taken: Set<string>,
	) {}

	static async read(
		context: IExecuteFunctions,
		since: number,
		taken: Set<string>,
	): Promise<Witness> {
		const records = await templateMessagesSince(context, new Date(since));
		const listed: Listed[] = [];
		let canTell = true;
		for (const record of records) {
			const at = createdAt(record);
			if (at !== undefined && at < since) continue;
			const message = listedOf(record);
			if (!message) continue;
			if (message.recipient === undefined || (!message.templateId && !message.templateName))
				canTell = false;
			listed.push(message);
		}
		return new Witness(context, listed, canTell, taken);
	}

	/** The messages Peach lists for this contact and template that no delivery of this execution took. */
	async untaken(delivery: Witnessed): Promise<Listed[]> {
		if (!this.canTell) return [];
		const recipient = digits(delivery.recipient);
		let name: string | undefined;
		const matching: Listed[] = [];
		for (const message of this.listed) {
			if (this.taken.has(message.id) || message.recipient !== recipient) continue;
			let same = message.templateId === delivery.templateId;
			if (!same && message.templateId === undefined) {
				name ??= text((await templateOf(this.context, delivery.templateId)).template_name) ?? '';
				same = message.templateName === name;
			}
			if (same) matching.push(message);
		}
		return matching;
	}

	/** Takes one of them (the oldest listed first), or answers undefined when none is left. */
	async take(delivery: Witnessed): Promise<PeachShows | undefined> {
		const [message] = await this.untaken(delivery);
		if (!message) return undefined;
		this.taken.add(message.id);
		return { id: message.id, status: message.status };
	}
}

/** The contact and template Peach lists a message by, as one key. */
export const groupOf = ({ recipient, templateId }: Witnessed): string =>
	JSON.stringify([recipient.replace(/\D/g, ''), templateId]);

/** Each contact and template's identities in a run, in one pass. */
export function identitiesByGroup(
	identities: string[],
	witnessed: Array<Witnessed | undefined>,
): Map<string, string[]> {
	const groups = new Map<string, string[]>();
	witnessed.forEach((delivery, index) => {
		if (!delivery) return;
		const group = groupOf(delivery);
		const members = groups.get(group);
		if (members) members.push(identities[index]);
		else groups.set(group, [identities[index]]);
	});
	return groups;
}
